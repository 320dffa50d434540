import type { Knex } from 'knex';

const FIVE = ['#FCF2CF', '#D7F5E1', '#E9E2FF', '#FAE6E8', '#FAEEE6'];

/**
 * A dashboard's `color` is any hex colour code (#RGB or #RRGGBB), as the specification
 * says (docs/decisions.md, Defaults), not only the reference's five: the check follows.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE dashboards DROP CONSTRAINT dashboards_color_check');
  await knex.raw(
    "ALTER TABLE dashboards ADD CONSTRAINT dashboards_color_check CHECK (color IS NULL OR color ~ '^#([0-9a-fA-F]{3}){1,2}$')",
  );
}

/** Fails while a dashboard has a colour beyond the five: change it first. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE dashboards DROP CONSTRAINT dashboards_color_check');
  await knex.raw(
    `ALTER TABLE dashboards ADD CONSTRAINT dashboards_color_check CHECK (color IS NULL OR color IN (${FIVE.map((c) => `'${c}'`).join(', ')}))`,
  );
}
