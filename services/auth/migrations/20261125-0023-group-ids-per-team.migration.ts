import type { Knex } from 'knex';
import type { Migration } from '@firewatch/db';
import { writeEvents } from '@firewatch/events';
import { serialize } from '@firewatch/resource-kit';
import { groups as groupsResource } from '../src/domain/groups/groups.resource.js';
import { uniqueName, uniqueSlug } from './20261125-0021-key-groups.migration.js';

const UUID = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

interface Missing {
  team_id: number;
  id: string;
}

/**
 * A group's id is unique within its tenant, as every reader keys groups (incident-config's
 * and on-call's read models by team and id). A legacy group string that was a UUID kept
 * its value in every service (`legacyGroupId`), so two tenants whose keys wrote one UUID
 * each own records under it; with a global key, migration 0021 made the group for the
 * first tenant only and left the others' keys naming a group they do not have. Here each
 * of those tenants gets its group, under the same id its keys and records hold, named
 * by it and announced as any new group is. Lookups are all bound to the team, so the
 * shared id never reaches across tenants.
 */
export const groupIdsPerTeamMigration: Migration = {
  async up(knex: Knex) {
    await knex.raw('ALTER TABLE groups DROP CONSTRAINT groups_pkey, ADD CONSTRAINT groups_pkey PRIMARY KEY (team_id, id)');
    const missing: Missing[] = (
      await knex.raw(
        `SELECT DISTINCT k.team_id, g.id
           FROM api_keys k CROSS JOIN LATERAL unnest(k.group_ids) AS g(id)
          WHERE k.revoked_at IS NULL AND g.id ~ ?
            AND NOT EXISTS (SELECT 1 FROM groups WHERE groups.team_id = k.team_id AND groups.id = g.id::uuid)
          ORDER BY k.team_id, g.id`,
        [UUID],
      )
    ).rows;
    for (const teamId of new Set(missing.map((m) => m.team_id))) {
      const held = await knex('groups').where({ team_id: teamId }).select('name', 'slug');
      const names = new Set(held.map((g: { name: string }) => g.name.toLowerCase()));
      const slugs = new Set(held.map((g: { slug: string }) => g.slug));
      const rows = missing
        .filter((m) => m.team_id === teamId)
        .map(({ id }) => {
          const name = uniqueName(id, names);
          const slug = uniqueSlug(name, slugs);
          names.add(name.toLowerCase());
          slugs.add(slug);
          return { id, team_id: teamId, name, slug };
        });
      const created = await knex('groups').insert(rows).returning('*');
      await writeEvents(
        knex,
        created.map((row) => ({ type: 'group.created', team_id: row.team_id, data: serialize(groupsResource, row) })),
      );
    }
  },
  async down() {
    // The groups made here stay, and a global key would refuse them: the key stays per tenant.
  },
};
