import type { Knex } from 'knex';
import { z } from 'zod';
import { createPrincipalVerifier, PRINCIPAL_HEADER } from '@firewatch/auth';
import { createLogger } from '@firewatch/logger';
import { createServiceApp } from '@firewatch/http';
import {
  createTestDatabase,
  listen,
  signAsGateway,
  TEST_PRINCIPAL_KEYS,
  testPrincipal,
  type Listening,
  type TestDatabase,
} from '@firewatch/testing';
import { createResourceModules, createResourceRegistry, defineResource, mountResources } from '../src/index.js';

// Callers who see part of the team's records (group and record-scoped keys): what they may
// choose of unique values, and which ids a write may name (HookContext.visibleIds).
const groups = z.array(z.string().min(1));
const widgets = defineResource({
  type: 'widgets',
  path: '/v1/widgets',
  table: 'widgets',
  event: 'widget',
  permission: { scope: null, side: 'ir' },
  create: z.strictObject({ name: z.string().min(1), slug: z.string().min(1).optional(), owner_group_ids: groups.optional() }),
  update: z.strictObject({ name: z.string().min(1), slug: z.string().min(1), owner_group_ids: groups, note: z.string() }).partial(),
  attributes: ['name', 'slug', 'owner_group_ids', 'note'],
  jsonColumns: ['owner_group_ids'],
  slug: { from: 'name' },
  ownerGroups: { column: 'owner_group_ids' },
  unique: { widgets_team_id_name_owner_set_unique: { pointer: '/data/attributes/name', detail: 'Taken in this owner set.' } },
});

const links = defineResource({
  type: 'links',
  path: '/v1/links',
  table: 'links',
  event: 'link',
  permission: { scope: null, side: 'ir' },
  create: z.strictObject({ widget_ids: z.array(z.uuid()) }),
  update: z.strictObject({ widget_ids: z.array(z.uuid()) }),
  attributes: ['widget_ids'],
  jsonColumns: ['widget_ids'],
  hooks: {
    async validate(attributes, ctx) {
      const ids = (attributes.widget_ids ?? []) as string[];
      const found = await ctx.visibleIds('widgets', ids);
      return ids.flatMap((id, i) =>
        found.has(id) ? [] : [{ pointer: `/data/attributes/widget_ids/${i}`, code: 'invalid_reference', detail: `No widget ${id}.` }],
      );
    },
  },
});

let db: TestDatabase;
let server: Listening;

async function call(method: string, path: string, attributes?: Record<string, unknown>, principal: Record<string, unknown> = {}) {
  const type = path.split('/')[2];
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      [PRINCIPAL_HEADER]: await signAsGateway(testPrincipal(principal), 'kit-test', method, path),
      'content-type': 'application/vnd.api+json',
    },
    body: attributes ? JSON.stringify({ data: { type, attributes } }) : undefined,
  });
  const body = await res.json();
  return { status: res.status, body, code: body.errors?.[0]?.code as string | undefined };
}
const idOf = (res: { status: number; body: { data: { id: string } } }) => {
  expect(res.status).toBe(201);
  return res.body.data.id;
};

beforeAll(async () => {
  db = await createTestDatabase('fw_kit_partial_sight');
  const knex = db.knex as Knex;
  await knex.schema.createTable('widgets', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.text('name').notNullable();
    t.text('slug').notNullable();
    t.jsonb('owner_group_ids').notNullable();
    t.text('note');
    t.timestamps(true, true);
    t.unique(['team_id', 'slug'], { indexName: 'widgets_team_id_slug_unique' });
  });
  // The fixture's sets compare as stored; incident-config's compare them sorted and deduplicated.
  await knex.raw('CREATE UNIQUE INDEX widgets_team_id_name_owner_set_unique ON widgets (team_id, name, owner_group_ids)');
  await knex.schema.createTable('links', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.jsonb('widget_ids').notNullable();
    t.timestamps(true, true);
  });
  const modules = createResourceModules(createResourceRegistry([widgets, links]), {
    knex,
    writeEvent: async () => undefined,
    deps: undefined,
  });
  server = await listen(
    createServiceApp({
      logger: createLogger({ service: 't', level: 'silent' }),
      principals: createPrincipalVerifier({ publicKeys: TEST_PRINCIPAL_KEYS.publicKeys, audience: 'kit-test' }),
      routers: [mountResources(modules)],
    }),
  );
});

afterAll(async () => {
  await server?.close();
  await db?.drop();
});

const ops = { group_ids: ['ops'] };

describe('unique values a caller who sees part of the team may choose', () => {
  it('a group key chooses no slug where owner groups hide records (403 group_scoped), taken or not; it may send back its own', async () => {
    idOf(await call('POST', '/v1/widgets', { name: 'Pump', slug: 'pump', owner_group_ids: ['db'] }));
    for (const slug of ['pump', 'pump-free'])
      expect((await call('POST', '/v1/widgets', { name: 'Pump', slug, owner_group_ids: ['ops'] }, ops)).code).toBe('group_scoped');
    const mine = await call('POST', '/v1/widgets', { name: 'Pump', owner_group_ids: ['ops'] }, ops);
    const { slug } = mine.body.data.attributes;
    expect(slug).toMatch(/^pump-[a-z]{10}$/);
    expect((await call('PATCH', `/v1/widgets/${idOf(mine)}`, { slug: 'pump' }, ops)).code).toBe('group_scoped');
    expect((await call('PATCH', `/v1/widgets/${idOf(mine)}`, { slug, note: 'x' }, ops)).status).toBe(200);
  });

  it('a record-scoped key changes no unique attribute, slug or owner set of a record it lists (403 record_scoped); the same values pass', async () => {
    const listed = idOf(await call('POST', '/v1/widgets', { name: 'Valve', slug: 'valve', owner_group_ids: ['ops'] }));
    const key = { record_ids: [listed] };
    for (const attributes of [{ name: 'Pump' }, { name: 'Free' }, { slug: 'pump' }, { slug: 'free' }, { owner_group_ids: ['db'] }]) {
      const res = await call('PATCH', `/v1/widgets/${listed}`, attributes, key);
      expect([attributes, res.status, res.code]).toEqual([attributes, 403, 'record_scoped']);
    }
    expect(
      (await call('PATCH', `/v1/widgets/${listed}`, { name: 'Valve', slug: 'valve', owner_group_ids: ['ops', 'ops'], note: 'n' }, key))
        .status,
    ).toBe(200);
    expect(await db.knex('widgets').where({ id: listed }).first()).toMatchObject({ name: 'Valve', slug: 'valve', note: 'n' });
  });

  it('refuses at start-up owner groups beside a unique key that is not per owner set', () => {
    const perTeam = { ...widgets, unique: { widgets_team_id_name_unique: { pointer: '/data/attributes/name', detail: 'x' } } };
    expect(() => createResourceRegistry([perTeam])).toThrow(
      'widgets: with ownerGroups, unique key widgets_team_id_name_unique must be per owner set',
    );
  });
});

describe('ids a write names (visibleIds)', () => {
  it("counts only records the caller sees: its groups' for a group key, its list for a record key, its team's for anyone", async () => {
    const ours = idOf(await call('POST', '/v1/widgets', { name: 'Ours', owner_group_ids: ['ops'] }));
    const theirs = idOf(await call('POST', '/v1/widgets', { name: 'Theirs', owner_group_ids: ['db'] }));
    const otherTeam = idOf(await call('POST', '/v1/widgets', { name: 'Far', owner_group_ids: [] }, { team_id: 2 }));
    const refused = await call('POST', '/v1/links', { widget_ids: [ours, theirs, otherTeam] }, ops);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toEqual([
      '/data/attributes/widget_ids/1',
      '/data/attributes/widget_ids/2',
    ]);
    const link = idOf(await call('POST', '/v1/links', { widget_ids: [ours] }, ops));
    expect((await call('PATCH', `/v1/links/${link}`, { widget_ids: [ours, theirs] })).status).toBe(200);
    const key = { record_ids: [link, ours] };
    expect((await call('PATCH', `/v1/links/${link}`, { widget_ids: [theirs] }, key)).status).toBe(422);
    expect((await call('PATCH', `/v1/links/${link}`, { widget_ids: [ours] }, key)).status).toBe(200);
  });
});
