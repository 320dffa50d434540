import { z } from 'zod';
import { defineResource } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import { contactsOwner } from './contacts.parent.js';
import { MAX_RULES_PER_USER, ruleFields } from './contacts.fields.js';
import { ruleContactIssues } from './notification-rules.rules.js';

/**
 * A user's notification rules (issue 22, the reference's user_notification_rules): when
 * the user is paged, each rule fires `delay` minutes after the page began and reaches
 * them by its `enabled_contact_types` (email at `user_email_address_id`, SMS at
 * `user_sms_number_id`, a call at `user_call_number_id`; a null id means the user's
 * primary one). `notification_type` says which pages the rule is for: `audible` (high
 * urgency, sound and vibration) or `quiet`; the reference shows it, we also let it be
 * written (docs/api-contract.md). Ordered by `position` within the user.
 */
export const userNotificationRules = defineResource<OnCallResourceDeps>({
  type: 'user_notification_rules',
  path: '/v1/notification_rules',
  collections: [{ path: '/v1/users/{user_id}/notification_rules' }],
  parent: contactsOwner,
  table: 'user_notification_rules',
  event: 'user_notification_rule',
  permission: { scope: null, side: 'oc' },
  summary: { singular: 'user notification rule', plural: 'user notification rules' },
  create: z.strictObject(ruleFields).partial().required({ enabled_contact_types: true }),
  update: z.strictObject(ruleFields).partial(),
  attributes: [
    'user_id',
    'delay',
    'position',
    'user_email_address_id',
    'user_call_number_id',
    'user_sms_number_id',
    'user_device_id',
    'enabled_contact_types',
    'notification_type',
  ],
  attributeSchemas: { user_id: { type: 'integer', description: 'The user' } },
  jsonColumns: ['enabled_contact_types'],
  // No devices exist yet: the attribute is always null (the rule's validate refuses any id).
  computed: { user_device_id: () => null },
  filters: { notification_type: 'string' },
  sorts: ['position', 'delay', 'created_at', 'updated_at'],
  defaultSort: [
    { field: 'position', direction: 'asc' },
    { field: 'created_at', direction: 'asc' },
  ],
  position: { per: 'user_id' },
  limit: { max: MAX_RULES_PER_USER, per: 'user_id', detail: 'A user has at most {max} notification rules.' },
  updateMethods: ['put'],
  hooks: {
    // The reference allows a null delay: it fires at once.
    prepare: (attributes) => (attributes.delay === null ? { ...attributes, delay: 0 } : attributes),
    defaults: (attributes) => ({ delay: 0, notification_type: 'audible', ...attributes }),
    validate: ruleContactIssues,
    toColumns: ({ user_device_id: _device, ...columns }) => columns,
  },
});
