import { z } from 'zod';
import { defineResource } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import { keptWhileNamed, markPrimary } from './contact-methods.rules.js';
import { contactsOwner } from './contacts.parent.js';
import { e164Phone, MAX_CONTACTS_PER_USER } from './contacts.fields.js';

/**
 * A user's phone numbers (issue 22, the reference's user_phone_numbers): where a page may
 * call or text. Written in international format, validated by libphonenumber and stored
 * in E.164; unique per user. Changing the number resets `verified_at`. Verification needs
 * SMS to be sent and is not served yet, so `verified_at` stays null (docs/on-call.md).
 */
export const userPhoneNumbers = defineResource<OnCallResourceDeps>({
  type: 'user_phone_numbers',
  path: '/v1/phone_numbers',
  collections: [{ path: '/v1/users/{user_id}/phone_numbers' }],
  parent: contactsOwner,
  table: 'user_phone_numbers',
  event: 'user_phone_number',
  permission: { scope: null, side: 'oc' },
  summary: { singular: 'user phone number', plural: 'user phone numbers' },
  create: z.strictObject({ phone: e164Phone }),
  update: z.strictObject({ phone: e164Phone }).partial(),
  attributes: ['user_id', 'phone', 'primary', 'verified_at', 'verification_attempts_today'],
  attributeSchemas: {
    user_id: { type: 'integer', description: 'The user' },
    phone: { type: 'string', description: 'Phone number in E.164 (e.g. +14155552671)' },
    primary: { type: 'boolean', description: "Whether this is the user's primary phone number (their oldest)" },
    verified_at: { type: ['string', 'null'], format: 'date-time', description: 'When the number was verified; null until then' },
    verification_attempts_today: { type: 'integer', description: 'Verification attempts made today' },
  },
  computed: { verification_attempts_today: () => 0 },
  sorts: ['created_at', 'updated_at', 'phone'],
  defaultSort: [{ field: 'created_at', direction: 'asc' }],
  limit: { max: MAX_CONTACTS_PER_USER, per: 'user_id', detail: 'A user has at most {max} phone numbers.' },
  updateMethods: ['put'],
  unique: {
    user_phone_numbers_user_phone_unique: { pointer: '/data/attributes/phone', detail: 'The user already has this phone number.' },
  },
  hooks: {
    // A verification holds for the number verified, not for the one written over it.
    toColumns: (attributes, ctx) =>
      ctx.existing && attributes.phone !== undefined && attributes.phone !== ctx.existing.phone
        ? { ...attributes, verified_at: null }
        : attributes,
    expand: markPrimary('phone'),
    beforeRemove: keptWhileNamed('phone', 'phone number'),
  },
});
