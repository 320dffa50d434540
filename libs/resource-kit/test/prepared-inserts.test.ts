import knexFactory, { type Knex } from 'knex';
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

// A create's INSERT runs as a named prepared statement in its transaction; a migration that
// changes the table's columns under it makes PostgreSQL refuse the statement's old plan
// ("cached plan must not change result type"), and the create must still answer as before.
const widgets = defineResource({
  type: 'widgets',
  path: '/v1/widgets',
  table: 'widgets',
  event: 'widget',
  permission: { scope: null, side: 'ir' },
  create: z.strictObject({ name: z.string().min(1) }),
  update: z.strictObject({ name: z.string().min(1) }).partial(),
  attributes: ['name', 'slug'],
  slug: { from: 'name' },
});

// A record without a slug: its create is one plain INSERT.
const gauges = defineResource({
  type: 'gauges',
  path: '/v1/gauges',
  table: 'gauges',
  event: 'gauge',
  permission: { scope: null, side: 'ir' },
  create: z.strictObject({ level: z.string().min(1) }),
  update: z.strictObject({ level: z.string().min(1) }).partial(),
  attributes: ['level'],
});

let db: TestDatabase;
/** One connection: the statements it prepared are the ones looked at. */
let one: Knex;
let server: Listening;

async function create(attributes: Record<string, unknown>, type = 'widgets') {
  const path = `/v1/${type}`;
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: {
      [PRINCIPAL_HEADER]: await signAsGateway(testPrincipal({}), 'kit-test', 'POST', path),
      'content-type': 'application/vnd.api+json',
    },
    body: JSON.stringify({ data: { type, attributes } }),
  });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  db = await createTestDatabase('fw_kit_prepared_inserts');
  await db.knex.schema.createTable('widgets', (t) => {
    t.uuid('id').primary().defaultTo(db.knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.text('name').notNullable();
    t.text('slug').notNullable();
    t.timestamps(true, true);
    t.unique(['team_id', 'slug'], { indexName: 'widgets_team_id_slug_unique' });
  });
  await db.knex.schema.createTable('gauges', (t) => {
    t.uuid('id').primary().defaultTo(db.knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.text('level').notNullable();
    t.timestamps(true, true);
  });
  one = knexFactory({ client: 'pg', connection: db.url, pool: { min: 1, max: 1 } });
  const modules = createResourceModules(createResourceRegistry([widgets, gauges]), {
    knex: one,
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
  await one?.destroy();
  await db?.drop();
});

const preparedInserts = async () =>
  (await one.raw(`select statement from pg_prepared_statements where statement like 'insert into "widgets"%'`)).rows.map(
    (r: { statement: string }) => r.statement,
  ) as string[];

describe("a create's insert", () => {
  it('runs as one prepared statement per column set, answering the row as stored', async () => {
    const made = await Promise.all(['Pump', 'Valve', 'Pump'].map((name) => create({ name })));
    expect(made.map((m) => m.status)).toEqual([201, 201, 201]);
    expect(made.map((m) => m.body.data.attributes.slug).sort()).toEqual(['pump', 'pump-2', 'valve']);
    // The tentative slug's insert (ON CONFLICT DO NOTHING) and, for the second "Pump", the plain one.
    expect(await preparedInserts()).toEqual([
      'insert into "widgets" ("name", "slug", "team_id") values ($1, $2, $3) on conflict do nothing returning *',
      'insert into "widgets" ("name", "slug", "team_id") values ($1, $2, $3) returning *',
    ]);
  });

  it('answers as before when a migration changed the columns its prepared statement returns', async () => {
    expect((await create({ name: 'Before' })).status).toBe(201);
    await one.schema.alterTable('widgets', (t) => t.text('note'));
    const after = await create({ name: 'After' });
    expect(after.status).toBe(201);
    expect(after.body.data.attributes).toMatchObject({ name: 'After', slug: 'after' });
    expect(await one('widgets').where({ name: 'After' }).pluck('slug')).toEqual(['after']);
    // Prepared again under a new name, for the new columns.
    expect((await create({ name: 'Later' })).status).toBe(201);
  });

  it("answers as before when a migration changed a column's type under its prepared statement", async () => {
    expect((await create({ level: '1' }, 'gauges')).status).toBe(201);
    // The statement keeps the parameter types PostgreSQL gave it (text): planned again, it
    // would put text into an integer column, where an unprepared one sends '2' for an integer.
    await one.raw('alter table gauges alter column level type integer using level::integer');
    const after = await create({ level: '2' }, 'gauges');
    expect(after.status).toBe(201);
    expect(await one('gauges').orderBy('level').pluck('level')).toEqual([1, 2]);
    expect((await create({ level: '3' }, 'gauges')).status).toBe(201);
  });
});
