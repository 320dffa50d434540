import { z } from 'zod';
import { zodIssuesToValidation } from '@firewatch/jsonapi';
import {
  asEntityError,
  changedAttributes,
  defineAction,
  entityErrors,
  type EntityProblem,
  type ResourceWrites,
  type Row,
} from '@firewatch/resource-kit';
import type { BulkFamily } from './bulk-family.js';
import { mergeFields, type FieldValue } from './bulk-merge.js';
import type { CatalogPropertiesDeps } from './catalog-properties.lookup.js';

const MAX_ENTITIES = 100;

/**
 * A catalog value by its property's id, external_id or slug (docs/decisions.md, Resources);
 * `catalog_field_id` is the reference's other name for `catalog_property_id`.
 */
const propertyKey = z.string().min(1).max(255);
const field = z
  .strictObject({ catalog_field_id: propertyKey.optional(), catalog_property_id: propertyKey.optional(), value: z.string().max(10_000) })
  .refine((f) => (f.catalog_field_id ?? f.catalog_property_id) !== undefined, 'needs catalog_field_id or catalog_property_id')
  .refine(
    (f) => !f.catalog_field_id || !f.catalog_property_id || f.catalog_field_id === f.catalog_property_id,
    'names two different properties',
  );

function entitySchema(family: BulkFamily) {
  return z.strictObject({
    ...family.attributes.partial().shape,
    external_id: z.string().min(1).max(255),
    name: family.name.optional(),
    fields: z.array(field).max(50).optional(),
  });
}

type Entity = z.infer<ReturnType<typeof entitySchema>>;

/**
 * Entities are read loosely by the body schema and judged one by one in `run`, so that
 * every bad entity is named by index and external_id in one 422 (docs/decisions.md, Resources) rather
 * than by a JSON pointer; the documented schema is still the entity's.
 */
function bodySchema(entity: z.ZodType) {
  const { $schema: _dialect, ...documented } = z.toJSONSchema(entity, { io: 'input', unrepresentable: 'any' });
  return z.strictObject({ entities: z.array(z.record(z.string(), z.unknown()).meta(documented)).max(MAX_ENTITIES) });
}

/**
 * Every entity checked before anything is written: shape, duplicates in the batch, one
 * record to update, a name for new records. `existing`: the records the caller sees, by
 * external_id; several when different owner sets each hold it (unique per owner set).
 */
function judge(
  raw: readonly Row[],
  entity: z.ZodType<Entity>,
  existing: ReadonlyMap<string, Row[]>,
  noun: string,
): { entities: Entity[]; problems: EntityProblem[] } {
  const seen = new Set<string>();
  const entities: Entity[] = [];
  const problems: EntityProblem[] = [];
  raw.forEach((item, index) => {
    const externalId = typeof item.external_id === 'string' ? item.external_id : '';
    const parsed = entity.safeParse(item);
    const errors = parsed.success ? [] : zodIssuesToValidation(parsed.error.issues, '').map((i) => i.detail);
    if (parsed.success) {
      const found = existing.get(externalId) ?? [];
      if (seen.has(externalId)) errors.push('external_id appears more than once in the batch');
      else if (found.length > 1)
        errors.push(
          `external_id names ${found.length} records of different owner groups (${noun} ids ${found.map((r) => String(r.id)).join(', ')}); update each by id`,
        );
      else if (!found.length && parsed.data.name === undefined) errors.push('name is required for a new record');
      entities.push(parsed.data);
    }
    seen.add(externalId);
    if (errors.length) problems.push({ index, external_id: externalId, errors });
  });
  return { entities, problems };
}

/**
 * The entities with each field's property key replaced by the property's id; a key that
 * names none of the team's properties of this catalog fails its entity.
 */
async function resolveFields(entities: Entity[], ids: (keys: string[]) => Promise<Map<string, string>>): Promise<Entity[]> {
  const keyOf = (f: FieldValue) => (f.catalog_property_id ?? f.catalog_field_id) as string;
  const found = await ids([...new Set(entities.flatMap((e) => (e.fields ?? []).map(keyOf)))]);
  const problems: EntityProblem[] = [];
  const resolved = entities.map((entity, index) => {
    if (!entity.fields) return entity;
    const unknown = entity.fields.map(keyOf).filter((k) => !found.has(k));
    if (unknown.length)
      problems.push({ index, external_id: entity.external_id, errors: unknown.map((k) => `fields: no catalog property "${k}"`) });
    return { ...entity, fields: entity.fields.map((f) => ({ catalog_property_id: found.get(keyOf(f)) ?? keyOf(f), value: f.value })) };
  });
  if (problems.length) throw entityErrors(problems);
  return resolved;
}

/**
 * `owners`: what a new record's owner groups are when the caller is a group key (its own
 * groups: the entity cannot name any, and a group key creates only within its groups).
 */
async function upsertOne(resource: ResourceWrites, entity: Entity, row: Row | undefined, owners: Row) {
  const { fields, ...given } = entity;
  const attributes: Row = fields ? { ...given, properties: mergeFields(row?.properties, fields) } : given;
  if (!row) return resource.create({ ...attributes, ...owners });
  const changes = changedAttributes(row, attributes);
  // An entity that changes nothing is not written: a repeated batch emits no events.
  return Object.keys(changes).length ? resource.update(row, changes) : resource.serialize(row);
}

/**
 * `POST /v1/<family>/bulk_upsert` (docs/decisions.md, Resources): up to 100 entities keyed by
 * external_id, created or updated with only the attributes present, all or nothing in
 * the action's transaction, through the declaration's own writes (checks and events).
 * A group key finds, and so updates, only its groups' records (`findWhere`); anything it
 * creates is its groups', a set in which an external_id or name it meets is one it sees.
 * An external_id naming several records the caller sees fails its entity.
 */
export function bulkUpsertAction(family: BulkFamily) {
  const entity = entitySchema(family);
  const body = bodySchema(entity);
  return defineAction<CatalogPropertiesDeps, z.infer<typeof body>>({
    name: 'bulk_upsert',
    on: 'collection',
    capabilities: ['create', 'update'],
    // A record-scoped key must not learn which external_ids exist.
    hiddenFromRecordKeys: true,
    body,
    summary: `Create or update up to ${MAX_ENTITIES} ${family.type} by external_id`,
    response: {
      schema: { type: 'object', properties: { data: { type: 'array', items: { $ref: `#/components/schemas/${family.type}_resource` } } } },
    },
    async run({ body: { entities: raw }, resource, deps, tx, principal }) {
      // Batches of one team take turns, and the rows they update stay locked: two batches
      // cannot both create one external_id, nor merge fields into the same stale value.
      await resource.lock('bulk_upsert');
      const keys = raw.map((e) => e.external_id).filter((k): k is string => typeof k === 'string');
      const existing = new Map<string, Row[]>();
      for (const row of await resource.findWhere({ external_id: keys }, { forUpdate: true })) {
        existing.set(String(row.external_id), [...(existing.get(String(row.external_id)) ?? []), row]);
      }
      const judged = judge(raw, entity, existing, family.noun);
      if (judged.problems.length) throw entityErrors(judged.problems);
      const entities = await resolveFields(judged.entities, (ids) =>
        deps.catalogProperties.idsByKey(tx, principal.team_id, family.catalogType, ids),
      );
      const owners = family.ownerGroups && principal.group_ids !== null ? { [family.ownerGroups.column]: principal.group_ids } : {};
      const data = [];
      for (const [index, item] of entities.entries()) {
        try {
          data.push(await upsertOne(resource, item, existing.get(item.external_id)?.[0], owners));
        } catch (err) {
          throw asEntityError(err, index, item.external_id);
        }
      }
      return { document: { data } };
    },
  });
}
