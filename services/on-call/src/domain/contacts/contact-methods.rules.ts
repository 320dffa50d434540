import type { ValidationIssue } from '@firewatch/errors';
import type { HookContext, Row, Transaction } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import type { ContactKind } from './contacts.deps.js';

/**
 * `expand` of a contact method: `primary` is computed, not stored: a user's oldest
 * address (or number) is their primary one, and when it is deleted the next oldest is.
 * Nothing to keep in step, and no two can be primary however creates race.
 */
export function markPrimary(kind: ContactKind) {
  return async (rows: Row[], { tx, deps }: { tx: Transaction | undefined; deps: OnCallResourceDeps }): Promise<void> => {
    if (!rows.length) return;
    const primary = await deps.contacts.primaryIds(tx, kind, [...new Set(rows.map((r) => r.user_id as number))]);
    for (const row of rows) row.primary = primary.has(String(row.id));
  };
}

/**
 * `primary` of every contact method of one kind of one user, all at hand, oldest first
 * (their deletion with the user, whose events must say what `markPrimary` answered).
 */
export function markOldestPrimary(rows: Row[]): void {
  rows.forEach((row, i) => (row.primary = i === 0));
}

/**
 * `beforeRemove` of a contact method: one a notification rule names stays (422 naming the
 * rules, as the reference answers for a phone number "used by notification rule"); the
 * user changes or deletes those rules first.
 */
export function keptWhileNamed(kind: ContactKind, noun: string) {
  return async (ctx: HookContext<OnCallResourceDeps>): Promise<ValidationIssue[]> => {
    const rules = await ctx.deps.contacts.rulesUsing(ctx.tx, kind, String(ctx.existing!.id));
    if (!rules.length) return [];
    const named = rules.slice(0, 10).join(', ') + (rules.length > 10 ? ', …' : '');
    return [
      { pointer: '/data', code: 'in_use', detail: `The ${noun} is used by notification rules ${named}; change or delete them first.` },
    ];
  };
}
