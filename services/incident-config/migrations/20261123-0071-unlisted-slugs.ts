import type { Knex } from 'knex';
import { slugify, unlistedSlug } from '@firewatch/resource-kit';

/** Records some of their team cannot see, as the declarations' `slug.hidden` has them. */
const HIDDEN = [
  { table: 'incidents', from: 'title', where: { private: true } },
  { table: 'dashboards', from: 'name', where: { owner: 'user', public: false } },
] as const;

/**
 * Hidden records leave the slug sequence creates probe (security issue 19, finding 5): a
 * private incident holding `outage` made the next public "Outage" `outage-2`, telling its
 * creator that a record it cannot see has that title. Each gets an unlisted slug, as new
 * ones do; links to the old slug of a hidden record stop working.
 */
export async function up(knex: Knex): Promise<void> {
  for (const { table, from, where } of HIDDEN) {
    const rows = (await knex(table).where(where).select('id', from)) as Record<string, string>[];
    for (const row of rows)
      await knex(table)
        .where('id', row.id)
        .update({ slug: unlistedSlug(slugify(row[from] ?? '')) });
  }
}

export async function down(): Promise<void> {
  // The old slugs are not kept: back on the sequence they would tell again.
}
