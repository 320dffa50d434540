import { z } from 'zod';
import { zodIssuesToValidation } from '@firewatch/jsonapi';
import { asEntityError, changedAttributes, defineAction, entityErrors, type EntityProblem, type Row } from '@firewatch/resource-kit';
import type { AuthResourceDeps } from '../auth.deps.js';
import { refuseGroupKeys } from './group-keys.rules.js';
import { MAX_BULK } from './groups-bulk.rules.js';
import { groupFields } from './groups.fields.js';

/** The reference's bulk_upsert_teams entity. Catalog `fields` are not kept for groups (docs/decisions.md, Groups). */
const entity = z.strictObject({
  ...z
    .strictObject(groupFields)
    .pick({
      description: true,
      color: true,
      position: true,
      notify_emails: true,
      pagerduty_id: true,
      pagerduty_service_id: true,
      opsgenie_id: true,
      victor_ops_id: true,
      pagertree_id: true,
      backstage_id: true,
      cortex_id: true,
      opslevel_id: true,
      service_now_ci_sys_id: true,
      alerts_email_enabled: true,
    })
    .partial().shape,
  external_id: z.string().min(1).max(255),
  name: groupFields.name.optional(),
});

type Entity = z.infer<typeof entity>;

/**
 * Entities are read loosely and judged one by one, so every bad entity is named by index
 * and external_id in one 422 (the reference's bulk_upsert_teams_error); the documented
 * schema is still the entity's.
 */
const { $schema: _dialect, ...documented } = z.toJSONSchema(entity, { io: 'input', unrepresentable: 'any' });
const body = z.strictObject({ entities: z.array(z.record(z.string(), z.unknown()).meta(documented)).max(MAX_BULK) });

/** Every entity checked before anything is written: shape, duplicates in the batch, a name for new groups. */
function judge(raw: readonly Row[], existing: ReadonlyMap<string, Row>): Entity[] {
  const seen = new Set<string>();
  const entities: Entity[] = [];
  const problems: EntityProblem[] = [];
  raw.forEach((item, index) => {
    const externalId = typeof item.external_id === 'string' ? item.external_id : '';
    const parsed = entity.safeParse(item);
    const errors = parsed.success ? [] : zodIssuesToValidation(parsed.error.issues, '').map((i) => i.detail);
    if (parsed.success) {
      if (seen.has(externalId)) errors.push('external_id appears more than once in the batch');
      else if (!existing.has(externalId) && parsed.data.name === undefined) errors.push('name is required for a new team');
      entities.push(parsed.data);
    }
    seen.add(externalId);
    if (errors.length) problems.push({ index, external_id: externalId, errors });
  });
  if (problems.length) throw entityErrors(problems);
  return entities;
}

/**
 * `POST /v1/teams/bulk_upsert` (docs/decisions.md, Groups): up to 100 groups keyed by
 * external_id, created or updated with only the attributes present, all or nothing,
 * through the declaration's own writes (checks and `group.*` events). An entity that
 * changes nothing is not written, so a repeated batch emits no events.
 */
export const bulkUpsertGroupsAction = defineAction<AuthResourceDeps, z.infer<typeof body>>({
  name: 'bulk_upsert',
  on: 'collection',
  capabilities: ['create', 'update'],
  // A record-scoped key must not learn which external_ids exist.
  hiddenFromRecordKeys: true,
  body,
  summary: `Create or update up to ${MAX_BULK} teams by external_id`,
  response: {
    schema: { type: 'object', properties: { data: { type: 'array', items: { $ref: '#/components/schemas/groups_resource' } } } },
  },
  async run({ body: { entities: raw }, resource, principal }) {
    refuseGroupKeys(principal);
    // Batches of one team take turns, so two cannot both create one external_id.
    await resource.lock('bulk_upsert');
    const keys = raw.map((e) => e.external_id).filter((k): k is string => typeof k === 'string');
    const existing = new Map((await resource.findWhere({ external_id: keys }, { forUpdate: true })).map((r) => [String(r.external_id), r]));
    const data = [];
    for (const [index, item] of judge(raw, existing).entries()) {
      const row = existing.get(item.external_id);
      try {
        if (!row) data.push(await resource.create(item));
        else {
          const changes = changedAttributes(row, item);
          data.push(Object.keys(changes).length ? await resource.update(row, changes) : resource.serialize(row));
        }
      } catch (err) {
        throw asEntityError(err, index, item.external_id);
      }
    }
    return { document: { data } };
  },
});
