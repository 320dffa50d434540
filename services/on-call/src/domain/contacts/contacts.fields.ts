import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { z } from 'zod';

/** A person keeps a handful of addresses and numbers; more is no contact list a pager should walk. */
export const MAX_CONTACTS_PER_USER = 20;
/** Rules are steps of one person's escalation (e.g. push now, SMS after 5, call after 10). */
export const MAX_RULES_PER_USER = 50;
/** A rule fires at most a day after the page began. */
export const MAX_DELAY_MINUTES = 1_440;

/** An email address as the reference's `email`: a valid address, kept as written (trimmed). */
export const emailAddress = z
  .string()
  .trim()
  .max(320)
  .pipe(z.email({ error: 'is not a valid email address' }));

/**
 * A phone number as the reference's `phone` ("in international format"): written with its
 * country code (`+`, spaces, dashes and parentheses allowed), valid for its country by
 * libphonenumber's full metadata, and stored in E.164 (`+14155552671`). The whole value
 * is the number: libphonenumber would otherwise find one inside other text (`tel:`, a
 * trailing word) and drop an extension, which E.164 cannot hold and a pager would not dial.
 */
export const e164Phone = z
  .string()
  .max(40)
  .transform((value, ctx) => {
    const trimmed = value.trim();
    const parsed = trimmed.startsWith('+') ? parsePhoneNumberFromString(trimmed, { extract: false }) : undefined;
    if (parsed?.isValid() && parsed.ext === undefined) return parsed.number;
    ctx.addIssue({
      code: 'custom',
      message: 'is not a valid phone number in international format (E.164 with its country code, e.g. +14155552671)',
    });
    return z.NEVER;
  });

/** The reference's `enabled_contact_types` values. */
export const CONTACT_TYPES = ['email', 'sms', 'call', 'device', 'non_critical_device', 'slack', 'google_chat'] as const;
export const NOTIFICATION_TYPES = ['audible', 'quiet'] as const;

const contactId = (what: string) => z.uuid({ error: `is not the id of one of the user's ${what}` }).nullable();

/** The writable attributes of a notification rule, as the reference's new_user_notification_rule (plus `notification_type`). */
export const ruleFields = {
  delay: z.number().int().min(0).max(MAX_DELAY_MINUTES).nullable(),
  position: z.number().int().min(0).max(1_000_000).nullable(),
  user_email_address_id: contactId('email addresses'),
  user_call_number_id: contactId('phone numbers'),
  user_sms_number_id: contactId('phone numbers'),
  // No devices exist yet (a mobile app registers them): only null passes, in the rule's validate.
  user_device_id: z.uuid().nullable(),
  enabled_contact_types: z
    .array(z.enum(CONTACT_TYPES))
    .min(1)
    .refine((types) => new Set(types).size === types.length, 'lists a contact type twice'),
  notification_type: z.enum(NOTIFICATION_TYPES),
};
