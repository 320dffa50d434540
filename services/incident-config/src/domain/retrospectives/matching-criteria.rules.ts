import type { ValidationIssue } from '@firewatch/errors';
import type { HookContext, Row } from '@firewatch/resource-kit';

const CRITERIA = '/data/attributes/retrospective_process_matching_criteria';
/** The criteria naming records of this service, and the declaration each names. */
const REFERENCED: Readonly<Record<string, string>> = { severity_ids: 'severities', incident_type_ids: 'incident_types' };

/**
 * A 422 issue for each severity or incident type the criteria newly name that is no record
 * of the team (`visibleIds`, which share-locks those named, so none is deleted before the
 * write commits). Ids the process already names pass, as for incidents' lists, compared
 * as written now (lowercased): criteria kept from before they were checked may hold any
 * spelling, and a PUT sending back what it read must not fail on it.
 */
export async function criteriaReferenceIssues(attributes: Row, ctx: HookContext): Promise<ValidationIssue[]> {
  const criteria = attributes.retrospective_process_matching_criteria as Record<string, string[]> | null | undefined;
  if (!criteria) return [];
  const held = (ctx.existing?.retrospective_process_matching_criteria ?? {}) as Record<string, string[]>;
  const issues: ValidationIssue[] = [];
  for (const [key, resource] of Object.entries(REFERENCED)) {
    const ids = criteria[key];
    if (!ids?.length) continue;
    const kept = new Set((held[key] ?? []).map((id) => id.toLowerCase()));
    const found = await ctx.visibleIds(
      resource,
      ids.filter((id) => !kept.has(id)),
    );
    ids.forEach((id, i) => {
      if (kept.has(id) || found.has(id)) return;
      issues.push({ pointer: `${CRITERIA}/${key}/${i}`, code: 'invalid_reference', detail: `${key}: no ${resource} record "${id}".` });
    });
  }
  return issues;
}
