import type { Knex } from 'knex';
import { z } from 'zod';
import { createPrincipalVerifier, PRINCIPAL_HEADER } from '@firewatch/auth';
import { createLogger } from '@firewatch/logger';
import {
  createTestDatabase,
  listen,
  signAsGateway,
  TEST_PRINCIPAL_KEYS,
  testPrincipal,
  type Listening,
  type TestDatabase,
} from '@firewatch/testing';
import { createServiceApp } from '@firewatch/http';
import { createResourceModules, createResourceRegistry, defineResource } from '../src/index.js';

// toColumns, computed and revealOnCreate: a resource with a generated token stored
// reversed (standing in for encryption), masked on reads, shown once on create.
const gadgets = defineResource({
  type: 'gadgets',
  path: '/v1/gadgets',
  table: 'gadgets',
  event: 'environment',
  permission: { scope: null, side: 'ir' },
  create: z.strictObject({ name: z.string(), token: z.string().optional() }),
  update: z.strictObject({ name: z.string(), token: z.string() }).partial(),
  attributes: ['name', 'token'],
  computed: { token: (row) => `****${String(row.token_stored).slice(0, 4)}` },
  hooks: {
    defaults: (a) => ({ ...a, token: a.token ?? 'generated-1234' }),
    toColumns: (a) => {
      const { token, ...rest } = a;
      return typeof token === 'string' ? { ...rest, token_stored: [...token].reverse().join('') } : rest;
    },
    revealOnCreate: (a) => ({ token: a.token }),
  },
});

// Another declaration over the same rows, reaching gadgets by name only: its delete
// announces the row as gadgets announce theirs, its include serialises it as a gadget.
let includePermission: unknown;
/** Each beforeAccess call of echoes: whether it ran in the operation's transaction. */
const accesses: boolean[] = [];
/** The verb each prepare of echoes was given. */
const methods: (string | undefined)[] = [];
const echoes = defineResource({
  type: 'echoes',
  path: '/v1/echoes',
  table: 'gadgets',
  event: 'echo',
  permission: { scope: null, side: 'ir' },
  create: z.strictObject({ name: z.string() }),
  update: z.strictObject({ name: z.string() }).partial(),
  attributes: ['name'],
  includes: {
    gadget: async (rows, { permissionOf, serializeAs }) => {
      includePermission = permissionOf('gadgets');
      return rows.map((row) => serializeAs('gadgets', row));
    },
  },
  hooks: {
    beforeAccess: async ({ tx, principal }) => {
      if (principal.team_id) accesses.push(tx !== undefined);
    },
    defaults: (a) => ({ ...a, token_stored: 'ohce' }),
    prepare: (a, { method }) => {
      methods.push(method);
      return a;
    },
    async beforeRemove({ existing, announce }) {
      await announce('gadgets', 'touched', existing!);
      return [];
    },
  },
});

const events: { type: string; data: any }[] = [];
let db: TestDatabase;
let server: Listening;

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      [PRINCIPAL_HEADER]: await signAsGateway(testPrincipal(), 'kit-test', method, path),
      ...(body ? { 'content-type': 'application/vnd.api+json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  db = await createTestDatabase('fw_kit_test');
  await db.knex.schema.createTable('gadgets', (t) => {
    t.uuid('id').primary().defaultTo(db.knex.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable();
    t.text('name').notNullable();
    t.text('token_stored').notNullable();
    t.timestamps(true, true);
  });
  const modules = createResourceModules(createResourceRegistry([gadgets, echoes]), {
    knex: db.knex as Knex,
    writeEvent: async (_tx, e) => {
      events.push(e as never);
    },
    deps: undefined,
  });
  server = await listen(
    createServiceApp({
      logger: createLogger({ service: 't', level: 'silent' }),
      principals: createPrincipalVerifier({ publicKeys: TEST_PRINCIPAL_KEYS.publicKeys, audience: 'kit-test' }),
      routers: modules.map((m) => m.router),
    }),
  );
});

afterAll(async () => {
  await server?.close();
  await db?.drop();
});

describe('resource hooks', () => {
  it('writes mapped columns, reveals on create only, and computes attributes on reads and events', async () => {
    const created = await call('POST', '/v1/gadgets', { data: { type: 'gadgets', attributes: { name: 'a' } } });
    expect(created.status).toBe(201);
    expect(created.body.data.attributes.token).toBe('generated-1234');
    const id = created.body.data.id;
    expect((await db.knex('gadgets').where({ id }).first()).token_stored).toBe('4321-detareneg');
    expect(events[0].data.attributes.token).toBe('****4321');
    expect((await call('GET', `/v1/gadgets/${id}`)).body.data.attributes.token).toBe('****4321');
    const updated = await call('PATCH', `/v1/gadgets/${id}`, { data: { type: 'gadgets', attributes: { token: 'abcd' } } });
    expect(updated.body.data.attributes.token).toBe('****dcba');
    expect(
      (await call('PATCH', `/v1/gadgets/${id}`, { data: { type: 'gadgets', attributes: { name: 'b' } } })).body.data.attributes,
    ).toMatchObject({ name: 'b', token: '****dcba' });
  });

  it('reaches another declaration by name: announces a row with its event and serialiser, and reads its permission', async () => {
    const created = await call('POST', '/v1/echoes', { data: { type: 'echoes', attributes: { name: 'e' } } });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    const read = await call('GET', `/v1/echoes/${id}?include=gadget`);
    expect(read.body.included).toEqual([
      expect.objectContaining({ id, type: 'gadgets', attributes: expect.objectContaining({ token: '****ohce' }) }),
    ]);
    expect(includePermission).toEqual(gadgets.permission);
    expect((await call('DELETE', `/v1/echoes/${id}`)).status).toBe(200);
    const touched = events.filter((e) => e.type === 'environment.touched');
    expect(touched).toEqual([expect.objectContaining({ data: expect.objectContaining({ id, type: 'gadgets' }) })]);
    expect(touched[0].data.attributes).toMatchObject({ name: 'e', token: '****ohce' });
  });

  it('runs beforeAccess first in every operation: reads without a transaction, writes in theirs', async () => {
    accesses.length = 0;
    const id = (await call('POST', '/v1/echoes', { data: { type: 'echoes', attributes: { name: 'f' } } })).body.data.id;
    await call('GET', '/v1/echoes');
    await call('GET', `/v1/echoes/${id}`);
    await call('PATCH', `/v1/echoes/${id}`, { data: { type: 'echoes', attributes: { name: 'g' } } });
    await call('DELETE', `/v1/echoes/${id}`);
    // A 404 still asked first: the hook runs before the record is looked up.
    expect((await call('GET', `/v1/echoes/${id}`)).status).toBe(404);
    expect(accesses).toEqual([true, false, false, true, true, false]);
  });

  it("tells prepare an update's verb, none on create", async () => {
    methods.length = 0;
    const id = (await call('POST', '/v1/echoes', { data: { type: 'echoes', attributes: { name: 'h' } } })).body.data.id;
    await call('PATCH', `/v1/echoes/${id}`, { data: { type: 'echoes', attributes: { name: 'i' } } });
    await call('PUT', `/v1/echoes/${id}`, { data: { type: 'echoes', attributes: { name: 'j' } } });
    expect(methods).toEqual([undefined, 'patch', 'put']);
  });
});
