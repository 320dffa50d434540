import type { Knex } from 'knex';

/**
 * Catalog properties: the custom fields of a catalog (environments, services, ...), at
 * most 50 per catalog. Deleting one removes its values from the records of its catalog
 * in the deleting transaction, whichever path deletes it: a trigger, because the kit's
 * delete has no hook and no caller can forget a trigger.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('catalog_properties', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    // The built-in catalogs (environment, service, ...) have no catalog record, hence null.
    t.uuid('catalog_id');
    t.text('catalog_type').notNullable();
    t.text('name').notNullable();
    t.text('slug').notNullable();
    t.text('kind').notNullable();
    t.text('kind_catalog_id');
    t.boolean('multiple').notNullable().defaultTo(false);
    t.integer('position');
    t.boolean('required').notNullable().defaultTo(false);
    t.text('external_id');
    t.text('managed_by').notNullable().defaultTo('api');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['team_id', 'slug']);
    t.index(['team_id', 'catalog_type', 'position']);
  });
  await knex.raw(`CREATE UNIQUE INDEX catalog_properties_team_id_catalog_type_external_id_unique
    ON catalog_properties (team_id, catalog_type, external_id) WHERE external_id IS NOT NULL`);
  // The records of each catalog that hold property values; a table not there yet has none.
  await knex.raw(`
    CREATE FUNCTION catalog_properties_remove_values() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      holder text := CASE OLD.catalog_type WHEN 'environment' THEN 'environments'
                                           WHEN 'service' THEN 'services'
                                           WHEN 'functionality' THEN 'functionalities' END;
    BEGIN
      IF holder IS NOT NULL AND to_regclass(holder) IS NOT NULL THEN
        EXECUTE format(
          'UPDATE %I SET properties = (SELECT coalesce(jsonb_agg(p), ''[]''::jsonb) FROM jsonb_array_elements(properties) p
                                        WHERE p->>''catalog_property_id'' <> $2),
                         updated_at = now()
            WHERE team_id = $1 AND properties @> jsonb_build_array(jsonb_build_object(''catalog_property_id'', $2))', holder)
        USING OLD.team_id, OLD.id::text;
      END IF;
      RETURN OLD;
    END $$`);
  await knex.raw(`CREATE TRIGGER catalog_properties_remove_values AFTER DELETE ON catalog_properties
    FOR EACH ROW EXECUTE FUNCTION catalog_properties_remove_values()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('catalog_properties');
  await knex.raw('DROP FUNCTION catalog_properties_remove_values()');
}
