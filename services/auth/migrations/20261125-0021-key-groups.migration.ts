import type { Knex } from 'knex';
import { legacyGroupId } from '@firewatch/auth';
import type { Migration } from '@firewatch/db';
import { writeEvents } from '@firewatch/events';
import { serialize, slugCandidate, slugify } from '@firewatch/resource-kit';
import { groups as groupsResource } from '../src/domain/groups/groups.resource.js';

interface KeyGroups {
  id: string;
  team_id: number;
  group_ids: string[];
  revoked_at: Date | null;
}

interface LegacyGroup {
  id: string;
  team_id: number;
  name: string;
  slug: string;
}

/** `name`, else `name (2)`, `name (3)`, ...: the first not taken regardless of case. */
export function uniqueName(name: string, taken: Set<string>): string {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? name : `${name} (${n})`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

/** The slug of `name`, else `slug-2`, `slug-3`, ...: the first not taken. */
export function uniqueSlug(name: string, taken: Set<string>): string {
  const base = slugify(name);
  for (let n = 1; ; n++) {
    const candidate = slugCandidate(base, n);
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * The groups a team's live keys named by free text before groups existed: one per
 * distinct value, with the id every service computes for it (`legacyGroupId`; a UUID
 * stays itself), named by the value and unique as a name and a slug.
 */
function legacyGroups(keys: readonly KeyGroups[]): LegacyGroup[] {
  const groups = new Map<string, LegacyGroup>();
  const names = new Map<number, Set<string>>();
  const slugs = new Map<number, Set<string>>();
  for (const key of keys) {
    if (key.revoked_at) continue;
    for (const value of key.group_ids) {
      const id = legacyGroupId(key.team_id, value);
      // Per team only from migration 0023 on, when ids became unique per tenant: that one makes the others.
      if (groups.has(id)) continue;
      const teamNames = names.get(key.team_id) ?? names.set(key.team_id, new Set()).get(key.team_id)!;
      const teamSlugs = slugs.get(key.team_id) ?? slugs.set(key.team_id, new Set()).get(key.team_id)!;
      const name = uniqueName(value.trim() || value, teamNames);
      const slug = uniqueSlug(name, teamSlugs);
      teamNames.add(name.toLowerCase());
      teamSlugs.add(slug);
      groups.set(id, { id, team_id: key.team_id, name, slug });
    }
  }
  return [...groups.values()];
}

/**
 * API keys' `group_ids` name groups from now on (docs/decisions.md, Groups): each free
 * string becomes the group `legacyGroupId` names, created here for live keys, and the
 * keys are rewritten in place, so a group key keeps reaching the records whose owner
 * groups incident-config migrates with the same function.
 */
export const keyGroupsMigration: Migration = {
  async up(knex: Knex) {
    const keys: KeyGroups[] = await knex('api_keys')
      .select('id', 'team_id', 'group_ids', 'revoked_at')
      .whereNotNull('group_ids')
      .orderBy([{ column: 'created_at' }, { column: 'id' }]);
    const groups = legacyGroups(keys);
    for (let i = 0; i < groups.length; i += 500) {
      const rows = await knex('groups')
        .insert(groups.slice(i, i + 500))
        .returning('*');
      // Announced as any new group is, so the services keeping groups (incident-config, on-call) learn them.
      await writeEvents(
        knex,
        rows.map((row) => ({ type: 'group.created', team_id: row.team_id, data: serialize(groupsResource, row) })),
      );
    }
    for (const key of keys) {
      const ids = [...new Set(key.group_ids.map((value) => legacyGroupId(key.team_id, value)))];
      await knex('api_keys').where({ id: key.id }).update({ group_ids: ids });
    }
  },
  async down() {
    // The free strings are not kept; the groups and ids stay valid on the old schema.
  },
};
