import type { ValidationIssue } from '@firewatch/errors';
import type { HookContext, Row } from '@firewatch/resource-kit';

/** Declarations of this service whose ids other records list (a service's environment_ids, an incident's functionality_ids). */
export type ReferencedResource = 'environments' | 'services' | 'functionalities' | 'incident_types';

/**
 * A 422 issue for each id a write newly names, per id-list attribute present in
 * `attributes` (`{ environment_ids: 'environments' }`), that is no record the caller
 * sees: another team's, another group's for a group key, one a record-scoped key does
 * not list (`visibleIds`). Naming an id therefore tells nothing of records the caller
 * cannot see. Ids the record already names are no new reference: a PUT sending back what
 * it read passes, and a group key may add its own beside another group's.
 */
export async function referenceIssues(
  attributes: Row,
  ctx: HookContext,
  lists: Readonly<Record<string, ReferencedResource>>,
): Promise<ValidationIssue[]> {
  const issues: ValidationIssue[] = [];
  for (const [attribute, resource] of Object.entries(lists)) {
    const ids = attributes[attribute];
    if (!Array.isArray(ids) || !ids.length) continue;
    const held = new Set((ctx.existing?.[attribute] as string[] | undefined) ?? []);
    const found = await ctx.visibleIds(
      resource,
      (ids as string[]).filter((id) => !held.has(id)),
    );
    (ids as string[]).forEach((id, i) => {
      if (!held.has(id) && !found.has(id)) {
        issues.push({
          pointer: `/data/attributes/${attribute}/${i}`,
          code: 'invalid_reference',
          detail: `${attribute}: no ${resource} record "${id}".`,
        });
      }
    });
  }
  return issues;
}
