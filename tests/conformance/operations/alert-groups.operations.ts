import { randomUUID } from 'node:crypto';
import type { ConformanceContext } from '../support/conformance-system.js';
import { type ConformanceOperation, unknownIdRows } from '../conformance-operation.js';

const errorDocument = { spec: 'errors', cite: 'docs/api-contract.md §2 (Errors)' } as const;
const urgency = (attributes: Record<string, unknown>) => ({ data: { type: 'alert_urgencies', attributes } });
const group = (attributes: Record<string, unknown>) => ({ data: { type: 'alert_groups', attributes } });
const unique = () => randomUUID().slice(0, 8);

async function created(ctx: ConformanceContext, path: string, body: unknown): Promise<string> {
  const res = await ctx.call('POST', path, { body });
  if (res.status !== 201) throw new Error(`fixture: POST ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

/** A fresh alert urgency; its id. */
const alertUrgency = (ctx: ConformanceContext) =>
  created(ctx, '/v1/alert_urgencies', urgency({ name: `Urgency ${unique()}`, description: 'd' }));

/** A fresh alert group with a condition of each property type; its id. */
async function alertGroup(ctx: ConformanceContext): Promise<string> {
  return created(ctx, '/v1/alert_groups', group({ name: `Group ${unique()}`, ...(await everyAttribute(ctx)) }));
}

async function everyAttribute(ctx: ConformanceContext): Promise<Record<string, unknown>> {
  return {
    description: 'Database alerts',
    time_window: 30,
    condition_type: 'any',
    targets: [
      { target_type: 'Service', target_id: randomUUID() },
      { target_type: 'EscalationPolicy', target_id: randomUUID() },
    ],
    group_by_alert_title: 1,
    group_by_alert_urgency: 0,
    attributes: [{ json_path: '$.host' }],
    conditions: [
      {
        property_field_type: 'attribute',
        property_field_name: 'alert_urgency',
        property_field_condition_type: 'is_one_of',
        alert_urgency_ids: [await alertUrgency(ctx)],
      },
      {
        property_field_type: 'payload',
        property_field_name: '$.service',
        property_field_condition_type: 'matches_regex',
        property_field_value: '^db-',
      },
      {
        property_field_type: 'alert_field',
        conditionable_type: 'AlertField',
        conditionable_id: randomUUID(),
        property_field_condition_type: 'is_one_of',
        property_field_values: ['eu'],
      },
    ],
  };
}

/**
 * A fresh service (incident-config) once on-call knows it from its `service.created` event;
 * its id. The probe repeats a fixture group's name with the service as its only target:
 * 409 once the service is known, 422 at the target while it is not; it stores nothing.
 */
async function knownService(ctx: ConformanceContext): Promise<string> {
  const id = await created(ctx, '/v1/services', { data: { type: 'services', attributes: { name: `Service ${unique()}` } } });
  const name = `Probe ${unique()}`;
  await created(ctx, '/v1/alert_groups', group({ name }));
  const deadline = Date.now() + 15_000;
  for (;;) {
    const res = await ctx.call('POST', '/v1/alert_groups', { body: group({ name, targets: [{ target_id: id }] }) });
    if (res.status === 409) return id;
    if (Date.now() > deadline) throw new Error(`fixture: on-call does not know service ${id}: ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Alert urgencies (the reference's alert_urgencies; the ids conditions name). */
export const alertUrgencyOperations: ConformanceOperation[] = [
  {
    method: 'POST',
    path: '/v1/alert_urgencies',
    variant: 'every attribute set',
    request: () => ({ body: urgency({ name: `High ${unique()}`, description: 'Page now', position: 3 }) }),
    status: 201,
    schema: { reference: 'createAlertUrgency', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/alert_urgencies',
    variant: 'description missing',
    request: () => ({ body: urgency({ name: 'x' }) }),
    status: 422,
    schema: { reference: 'createAlertUrgency', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/alert_urgencies',
    variant: 'no credential',
    request: () => ({ body: urgency({ name: 'x', description: 'd' }), token: null }),
    status: 401,
    schema: { reference: 'createAlertUrgency', status: 401 },
  },
  { method: 'GET', path: '/v1/alert_urgencies', status: 200, schema: { reference: 'listAlertUrgencies', status: 200 } },
  {
    method: 'GET',
    path: '/v1/alert_urgencies',
    variant: 'filters, sort and a page',
    request: () => ({ query: 'filter[search]=h&filter[name][not_eq]=x&sort=-position&page[size]=1' }),
    status: 200,
    schema: { reference: 'listAlertUrgencies', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/alert_urgencies/{id}',
    request: async (ctx) => ({ params: { id: await alertUrgency(ctx) } }),
    status: 200,
    schema: { reference: 'getAlertUrgency', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/alert_urgencies/{id}',
    request: async (ctx) => ({ params: { id: await alertUrgency(ctx) }, body: urgency({ description: 'Changed', position: null }) }),
    status: 200,
    schema: { reference: 'updateAlertUrgency', status: 200 },
  },
  {
    method: 'DELETE',
    path: '/v1/alert_urgencies/{id}',
    request: async (ctx) => ({ params: { id: await alertUrgency(ctx) } }),
    status: 200,
    schema: { reference: 'deleteAlertUrgency', status: 200 },
  },
  {
    // A deliberate deviation: deleteAlertUrgency declares only 200 and 404. Deleting an urgency a
    // condition names would leave an is_one_of condition that can never hold (or an empty one), and a
    // client echoing the conditions back would meet a 422; so the delete is refused until they change.
    method: 'DELETE',
    path: '/v1/alert_urgencies/{id}',
    variant: 'named by a group condition: 422 in_use, a declared deviation (the reference: 200/404 only)',
    request: async (ctx) => {
      const id = await alertUrgency(ctx);
      await created(
        ctx,
        '/v1/alert_groups',
        group({
          name: `Uses ${unique()}`,
          conditions: [
            {
              property_field_type: 'attribute',
              property_field_name: 'alert_urgency',
              property_field_condition_type: 'is_one_of',
              alert_urgency_ids: [id],
            },
          ],
        }),
      );
      return { params: { id } };
    },
    status: 422,
    schema: {
      spec: 'errors',
      cite: 'docs/api-contract.md §2 (Errors); deviation from deleteAlertUrgency (200/404): docs/on-call.md, "Deleting an urgency in use"',
    },
  },
  ...unknownIdRows('/v1/alert_urgencies/{id}', [
    ['GET', 'getAlertUrgency'],
    ['PUT', 'updateAlertUrgency', urgency({ name: 'x' })],
    ['DELETE', 'deleteAlertUrgency'],
  ]),
];

/** Alert groups (docs/on-call.md) and their evaluate action. */
export const alertGroupOperations: ConformanceOperation[] = [
  {
    method: 'POST',
    path: '/v1/alert_groups',
    variant: 'every attribute set, legacy ones too',
    request: async (ctx) => ({ body: group({ name: `DB ${unique()}`, ...(await everyAttribute(ctx)) }) }),
    status: 201,
    schema: { reference: 'createAlertGroup', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/alert_groups',
    variant: "conditions with the specification's fields only (types default)",
    request: async (ctx) => ({
      body: group({
        name: `Spec ${unique()}`,
        description: 'As the specification writes it',
        time_window: 15,
        conditions: [
          { property_field_name: 'summary', property_field_value: 'db', property_field_values: ['db down'] },
          { property_field_name: 'alert_urgency', alert_urgency_ids: [await alertUrgency(ctx)] },
          { conditionable_type: 'AlertField', conditionable_id: randomUUID(), property_field_values: ['eu'] },
        ],
      }),
    }),
    status: 201,
    schema: { reference: 'createAlertGroup', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/alert_groups',
    variant: "targets of only target_id, as the specification writes them (the type found from a service's event)",
    request: async (ctx) => ({ body: group({ name: `By id ${unique()}`, targets: [{ target_id: await knownService(ctx) }] }) }),
    status: 201,
    schema: { reference: 'createAlertGroup', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/alert_groups',
    variant: 'a target of only a target_id on-call knows no record of',
    request: () => ({ body: group({ name: 'x', targets: [{ target_id: randomUUID() }] }) }),
    status: 422,
    schema: { reference: 'createAlertGroup', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/alert_groups',
    variant: 'only the required name',
    request: () => ({ body: group({ name: `Plain ${unique()}` }) }),
    status: 201,
    schema: { reference: 'createAlertGroup', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/alert_groups',
    variant: 'a payload condition whose name is no JSON path',
    request: () => ({ body: group({ name: 'x', conditions: [{ property_field_type: 'payload', property_field_name: 'host' }] }) }),
    status: 422,
    schema: { reference: 'createAlertGroup', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/alert_groups',
    variant: 'no credential',
    request: () => ({ body: group({ name: 'x' }), token: null }),
    status: 401,
    schema: { reference: 'createAlertGroup', status: 401 },
  },
  {
    method: 'GET',
    path: '/v1/alert_groups',
    request: async (ctx) => {
      await alertGroup(ctx);
      return {};
    },
    status: 200,
    schema: { reference: 'listAlertGroups', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/alert_groups',
    variant: 'include of every name the list takes',
    request: async (ctx) => {
      await alertGroup(ctx);
      return { query: 'include=alert_urgencies,groups,services,escalation_policies,functionalities' };
    },
    status: 200,
    schema: { reference: 'listAlertGroups', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/alert_groups',
    variant: 'filters',
    request: () => ({ query: 'filter[name][not_in]=a,b&filter[slug][not_eq]=x' }),
    status: 200,
    schema: { reference: 'listAlertGroups', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/alert_groups/{id}',
    request: async (ctx) => ({ params: { id: await alertGroup(ctx) } }),
    status: 200,
    schema: { reference: 'getAlertGroup', status: 200 },
  },
  {
    method: 'PATCH',
    path: '/v1/alert_groups/{id}',
    request: async (ctx) => ({
      params: { id: await alertGroup(ctx) },
      body: group({
        description: null,
        time_window: 5,
        conditions: [
          {
            property_field_type: 'attribute',
            property_field_name: 'summary',
            property_field_condition_type: 'contains',
            property_field_value: 'disk',
          },
        ],
      }),
    }),
    status: 200,
    schema: { reference: 'updateAlertGroup', status: 200 },
  },
  {
    method: 'PATCH',
    path: '/v1/alert_groups/{id}',
    variant: 'legacy attributes only, onto the stored conditions',
    request: async (ctx) => ({
      params: { id: await alertGroup(ctx) },
      body: group({ group_by_alert_title: 0, group_by_alert_urgency: 1, attributes: [] }),
    }),
    status: 200,
    schema: { reference: 'updateAlertGroup', status: 200 },
  },
  {
    method: 'PATCH',
    path: '/v1/alert_groups/{id}',
    variant: "targets of only target_id (the type found from a service's event)",
    request: async (ctx) => ({ params: { id: await alertGroup(ctx) }, body: group({ targets: [{ target_id: await knownService(ctx) }] }) }),
    status: 200,
    schema: { reference: 'updateAlertGroup', status: 200 },
  },
  {
    method: 'PATCH',
    path: '/v1/alert_groups/{id}',
    variant: 'time_window out of bounds',
    request: async (ctx) => ({ params: { id: await alertGroup(ctx) }, body: group({ time_window: 0 }) }),
    status: 422,
    schema: errorDocument,
  },
  {
    method: 'DELETE',
    path: '/v1/alert_groups/{id}',
    request: async (ctx) => ({ params: { id: await alertGroup(ctx) } }),
    status: 200,
    schema: { reference: 'deleteAlertGroup', status: 200 },
  },
  ...unknownIdRows('/v1/alert_groups/{id}', [
    ['GET', 'getAlertGroup'],
    ['PATCH', 'updateAlertGroup', group({ name: 'x' })],
    ['DELETE', 'deleteAlertGroup'],
  ]),
  {
    method: 'POST',
    path: '/v1/alert_groups/evaluate',
    request: async (ctx) => {
      await alertGroup(ctx);
      return {
        body: { data: { type: 'alert_group_evaluations', attributes: { alert: { summary: 'disk full', payload: { service: 'db-1' } } } } },
      };
    },
    status: 200,
    schema: {
      spec: 'single',
      type: 'alert_group_evaluations',
      cite: 'docs/api-contract.md §2 (Documents); docs/on-call.md (evaluate, issue 11)',
    },
  },
  {
    method: 'POST',
    path: '/v1/alert_groups/evaluate',
    variant: 'malformed alert',
    request: () => ({ body: { data: { type: 'alert_group_evaluations', attributes: { alert: { urgency_id: 'high' } } } } }),
    status: 422,
    schema: errorDocument,
  },
];
