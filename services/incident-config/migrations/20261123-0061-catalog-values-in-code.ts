import type { Knex } from 'knex';

/**
 * Removing a deleted property's values moves from a trigger into the property's delete
 * (`beforeRemove`), which announces each record it changes; a trigger could not.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS catalog_properties_remove_values ON catalog_properties');
  await knex.raw('DROP FUNCTION IF EXISTS catalog_properties_remove_values()');
}

export async function down(): Promise<void> {
  // The trigger is not brought back: the code that replaced it would then remove values twice.
}
