import { z } from 'zod';
import { ROLES } from '@firewatch/auth';
import { ianaTimeZone } from './time-zone.rules.js';

/** Lower-cased: the same address in another case is the same user. */
export const email = z
  .email()
  .max(320)
  .transform((e) => e.toLowerCase());

/** An IANA time zone name, stored as time-zone.rules.ts spells it. */
export const timeZone = z
  .string()
  .max(64)
  .transform((name, ctx) => {
    const zone = ianaTimeZone(name);
    if (zone === undefined) {
      ctx.addIssue({ code: 'custom', message: `"${name}" is not an IANA time zone name (e.g. Europe/Berlin, America/New_York, Etc/UTC).` });
      return z.NEVER;
    }
    return zone;
  });

/** A first or last name; blank is none. */
const namePart = z
  .string()
  .trim()
  .max(255)
  .nullable()
  .transform((s) => s || null);

/**
 * `PUT /v1/users/{id}`: the reference's first and last names, and what the reference
 * sets through other screens (email, the roles by name, the time zone). Who may send
 * which: users.rules.ts.
 */
export const updateUserAttributesSchema = z.strictObject({
  first_name: namePart.optional(),
  last_name: namePart.optional(),
  email: email.optional(),
  role: z.enum(ROLES).optional(),
  on_call_role: z.enum(ROLES).optional(),
  time_zone: timeZone.optional(),
});
export type UpdateUserAttributes = z.infer<typeof updateUserAttributesSchema>;
