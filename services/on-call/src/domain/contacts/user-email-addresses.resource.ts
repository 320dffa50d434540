import { z } from 'zod';
import { defineResource } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import { keptWhileNamed, markPrimary } from './contact-methods.rules.js';
import { contactsOwner } from './contacts.parent.js';
import { emailAddress, MAX_CONTACTS_PER_USER } from './contacts.fields.js';

/**
 * A user's email addresses (issue 22, the reference's user_email_addresses): where a page
 * may be sent by email. Managed by the user and by on-call admins, under the user's path;
 * unique per user whatever the case. Verification (`resend_verification`, `verify`) is
 * served by hand (http/email-verification.routes.ts, docs/paging.md); changing the address
 * undoes it. A user deleted in auth takes them with it (users/user-sync.ts).
 */
export const userEmailAddresses = defineResource<OnCallResourceDeps>({
  type: 'user_email_addresses',
  path: '/v1/email_addresses',
  collections: [{ path: '/v1/users/{user_id}/email_addresses' }],
  parent: contactsOwner,
  table: 'user_email_addresses',
  event: 'user_email_address',
  permission: { scope: null, side: 'oc' },
  summary: { singular: 'user email address', plural: 'user email addresses' },
  create: z.strictObject({ email: emailAddress }),
  update: z.strictObject({ email: emailAddress }).partial(),
  attributes: ['user_id', 'email', 'primary'],
  attributeSchemas: {
    user_id: { type: 'integer', description: 'The user' },
    primary: { type: 'boolean', description: "Whether this is the user's primary email address (their oldest)" },
  },
  sorts: ['created_at', 'updated_at', 'email'],
  defaultSort: [{ field: 'created_at', direction: 'asc' }],
  limit: { max: MAX_CONTACTS_PER_USER, per: 'user_id', detail: 'A user has at most {max} email addresses.' },
  updateMethods: ['put'],
  unique: {
    user_email_addresses_user_email_unique: { pointer: '/data/attributes/email', detail: 'The user already has this email address.' },
  },
  hooks: {
    // A verification holds for the address verified, not for the one written over it.
    toColumns: (attributes, ctx) =>
      ctx.existing && typeof attributes.email === 'string' && attributes.email.toLowerCase() !== String(ctx.existing.email).toLowerCase()
        ? { ...attributes, verified_at: null, verification_hash: null, verification_expires_at: null, verification_sent_at: null }
        : attributes,
    expand: markPrimary('email'),
    beforeRemove: keptWhileNamed('email', 'email address'),
  },
});
