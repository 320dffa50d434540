import type { ValidationIssue } from '@firewatch/errors';
import type { Transaction } from '@firewatch/resource-kit';

/** The teams (groups) of a tenant as this service knows them from auth's events. */
export interface GroupDirectory {
  /** Which of `ids` are teams of `teamId` that are not deleted; anything not a UUID is none. */
  known(tx: Transaction, teamId: number, ids: readonly string[]): Promise<Set<string>>;
}

/** What a declaration whose attributes name teams needs in its `deps`. */
export interface GroupsDeps {
  groups: GroupDirectory;
}

/** Where a list of team ids sits in a write, and what it held before. */
export interface GroupList {
  /** The attribute's name in messages (`owner_group_ids`). */
  attribute: string;
  /** JSON pointer of the list in the request body. */
  pointer: string;
  ids: readonly string[];
  /** The ids the record already names: kept as they are, judged no more. */
  held?: readonly string[];
}

/**
 * A 422 issue for each id a write newly names that is no team of the caller's tenant:
 * unknown, deleted, or another tenant's (which reads as unknown, so it never leaks). Ids
 * the record already holds pass, so a record naming a deleted team, or a legacy name
 * auth never made a team of, can still be updated; adding such an id cannot. auth's
 * events take a moment to arrive: a team made a moment ago may be refused until they do
 * (docs/decisions.md, "Teams").
 */
export async function groupIssues(deps: GroupsDeps, tx: Transaction, teamId: number, list: GroupList): Promise<ValidationIssue[]> {
  // Writes arrive lower-cased (normalGroupId); a record may hold another spelling (migration 0101).
  const held = new Set((list.held ?? []).map(normalGroupId));
  const fresh = list.ids.filter((id) => !held.has(id));
  if (!fresh.length) return [];
  const known = await deps.groups.known(tx, teamId, fresh);
  return list.ids.flatMap((id, i) =>
    held.has(id) || known.has(id)
      ? []
      : [
          {
            pointer: `${list.pointer}/${i}`,
            code: 'invalid_reference',
            detail: `${list.attribute}: no team "${id}" (GET /v1/teams lists them by id; a team made a moment ago is known here within seconds).`,
          },
        ],
  );
}

/** What the OpenAPI document says of `owner_group_ids`. */
export const OWNER_GROUPS_DESCRIPTION =
  'Ids of teams of the tenant (GET /v1/teams). Each id a write newly names must be a team (422 otherwise); one made a moment ago is accepted within seconds.';

/** Team ids as stored and compared: PostgreSQL's lower-case spelling of a UUID. */
export const normalGroupId = (id: string) => id.toLowerCase();
