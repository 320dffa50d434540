import type { ValidationIssue } from '@firewatch/errors';
import type { HookContext, Row } from '@firewatch/resource-kit';
import { groupIssues, type GroupsDeps } from '../groups/group-references.js';

type GroupCriteria = { group_ids?: string[] } | null | undefined;

/**
 * A 422 issue for each team the criteria's `group_ids` newly name that is no team of the
 * tenant (`groupIssues`); ids the process already names pass.
 */
export async function criteriaGroupIssues(attributes: Row, ctx: HookContext<GroupsDeps>): Promise<ValidationIssue[]> {
  const ids = (attributes.retrospective_process_matching_criteria as GroupCriteria)?.group_ids;
  if (!ids?.length) return [];
  return groupIssues(ctx.deps, ctx.tx, ctx.principal.team_id, {
    attribute: 'group_ids',
    pointer: '/data/attributes/retrospective_process_matching_criteria/group_ids',
    ids,
    held: (ctx.existing?.retrospective_process_matching_criteria as GroupCriteria)?.group_ids,
  });
}
