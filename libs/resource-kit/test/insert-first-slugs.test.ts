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

// A generated slug is tried by the insert itself (ON CONFLICT DO NOTHING, no target): the
// slugs a declaration reserves must never be inserted, and a conflict on a unique key other
// than the slug's, which that insert also passes over, must still answer its own 409.
const gadgets = defineResource({
  type: 'gadgets',
  path: '/v1/gadgets',
  table: 'gadgets',
  event: 'gadget',
  permission: { scope: null, side: 'ir' },
  create: z.strictObject({ name: z.string().min(1), code: z.string().min(1) }),
  update: z.strictObject({ name: z.string().min(1), code: z.string().min(1) }).partial(),
  attributes: ['name', 'slug', 'code'],
  slug: { from: 'name', reserved: ['new', 'properties'] },
  unique: { gadgets_team_id_code_unique: { pointer: '/data/attributes/code', detail: 'Another gadget has this code.' } },
});

let db: TestDatabase;
let server: Listening;

async function create(attributes: Record<string, unknown>) {
  const path = '/v1/gadgets';
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: {
      [PRINCIPAL_HEADER]: await signAsGateway(testPrincipal({}), 'kit-test', 'POST', path),
      'content-type': 'application/vnd.api+json',
    },
    body: JSON.stringify({ data: { type: 'gadgets', attributes } }),
  });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  db = await createTestDatabase('fw_kit_insert_first_slugs');
  const knex = db.knex as Knex;
  await knex.schema.createTable('gadgets', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.text('name').notNullable();
    t.text('slug').notNullable();
    t.text('code').notNullable();
    t.timestamps(true, true);
    t.unique(['team_id', 'slug'], { indexName: 'gadgets_team_id_slug_unique' });
    t.unique(['team_id', 'code'], { indexName: 'gadgets_team_id_code_unique' });
  });
  const modules = createResourceModules(createResourceRegistry([gadgets]), { knex, writeEvent: async () => undefined, deps: undefined });
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

const slugs = async () => (await db.knex('gadgets').orderBy('slug').pluck('slug')) as string[];

describe('a generated slug tried by the insert', () => {
  it('skips a reserved slug: a record named "New" or "Properties" gets the next of its sequence', async () => {
    const made = await create({ name: 'New', code: 'n1' });
    expect(made.status).toBe(201);
    expect(made.body.data.attributes.slug).toBe('new-2');
    expect((await create({ name: 'Properties', code: 'p1' })).body.data.attributes.slug).toBe('properties-2');
    expect((await create({ name: 'New', code: 'n2' })).body.data.attributes.slug).toBe('new-3');
    expect(await slugs()).not.toEqual(expect.arrayContaining(['new']));
    expect(await slugs()).not.toEqual(expect.arrayContaining(['properties']));
  });

  it("answers a conflict on another unique key with that key's 409 and pointer, inserting nothing", async () => {
    expect((await create({ name: 'Pump', code: 'dup' })).status).toBe(201);
    const before = await slugs();
    // Its own slug free: only the code conflicts (the insert's DO NOTHING passed over it).
    const other = await create({ name: 'Valve', code: 'dup' });
    expect(other.status).toBe(409);
    expect(other.body.errors[0]).toMatchObject({
      code: 'already_exists',
      detail: 'Another gadget has this code.',
      source: { pointer: '/data/attributes/code' },
    });
    // Both its slug and its code taken: the code's conflict, not a slug moved along the sequence.
    const same = await create({ name: 'Pump', code: 'dup' });
    expect(same.status).toBe(409);
    expect(same.body.errors[0]).toMatchObject({ code: 'already_exists', source: { pointer: '/data/attributes/code' } });
    expect(await slugs()).toEqual(before);
  });

  it('gives concurrent creates of one name distinct slugs, and refuses all but one of a shared code', async () => {
    const names = await Promise.all([1, 2, 3].map((i) => create({ name: 'Crowd', code: `crowd-${i}` })));
    expect(names.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(names.map((r) => r.body.data.attributes.slug).sort()).toEqual(['crowd', 'crowd-2', 'crowd-3']);
    const codes = await Promise.all([1, 2, 3].map((i) => create({ name: `Solo ${i}`, code: 'shared' })));
    expect(codes.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(codes.filter((r) => r.status === 409).map((r) => r.body.errors[0].source.pointer)).toEqual([
      '/data/attributes/code',
      '/data/attributes/code',
    ]);
  });
});
