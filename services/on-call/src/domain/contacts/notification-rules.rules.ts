import type { ValidationIssue } from '@firewatch/errors';
import type { HookContext, Row } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import type { ContactKind } from './contacts.deps.js';

/** The attributes naming a contact method, with the kind each names. */
const CONTACT_ATTRIBUTES: readonly [string, ContactKind][] = [
  ['user_email_address_id', 'email'],
  ['user_call_number_id', 'phone'],
  ['user_sms_number_id', 'phone'],
];

/**
 * 422s for a rule naming contact methods that are not its user's (another user's,
 * another team's, or none), and for any device: no device exists yet (a mobile app
 * registers them). The methods named are held until the write ends, so none is deleted
 * under the rule.
 */
export async function ruleContactIssues(attributes: Row, ctx: HookContext<OnCallResourceDeps>): Promise<ValidationIssue[]> {
  const userId = (ctx.existing?.user_id ?? ctx.parent!.id) as number;
  const issues: ValidationIssue[] = [];
  for (const [attribute, kind] of CONTACT_ATTRIBUTES) {
    const id = attributes[attribute];
    if (typeof id !== 'string') continue;
    const owned = await ctx.deps.contacts.owned(ctx.tx, kind, userId, [id]);
    if (!owned.has(id))
      issues.push(
        invalid(attribute, `${attribute}: ${id} is not one of the user's ${kind === 'email' ? 'email addresses' : 'phone numbers'}.`),
      );
  }
  if (typeof attributes.user_device_id === 'string')
    issues.push(invalid('user_device_id', `user_device_id: ${attributes.user_device_id} is not one of the user's devices.`));
  return issues;
}

const invalid = (attribute: string, detail: string): ValidationIssue => ({
  pointer: `/data/attributes/${attribute}`,
  code: 'invalid_reference',
  detail,
});
