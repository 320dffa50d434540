import type { Knex } from 'knex';
import { createPrincipalVerifier, PRINCIPAL_HEADER } from '@firewatch/auth';
import { migrate } from '@firewatch/db';
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
import { migrations } from '../migrations/index.js';
import { createIncidentConfigApp } from '../src/app.js';
import { testSecretBox } from './support/incident-config-harness.js';

// Whatever a client sends, the answer is a 4xx JSON:API error (never a 5xx) and nothing changes.
let db: TestDatabase;
let server: Listening;

beforeAll(async () => {
  db = await createTestDatabase();
  await migrate(db.knex, migrations);
  server = await listen(
    createIncidentConfigApp({
      knex: db.knex as Knex,
      logger: createLogger({ service: 't', level: 'silent' }),
      principals: createPrincipalVerifier({ publicKeys: TEST_PRINCIPAL_KEYS.publicKeys, audience: 'incident-config' }),
      secretBox: testSecretBox,
    }),
  );
});

afterAll(async () => {
  await server?.close();
  await db?.drop();
});

const principal = (method: string, path: string) => signAsGateway(testPrincipal(), 'incident-config', method, path);
const attributes = (a: unknown) => JSON.stringify({ data: { type: 'environments', attributes: a } });
const bodies: [string, string][] = [
  ['empty', ''],
  ['null', 'null'],
  ['number', '42'],
  ['string', '"x"'],
  ['data array', '{"data":[]}'],
  ['attributes array', '{"data":{"type":"environments","attributes":[]}}'],
  ['attributes string', '{"data":{"type":"environments","attributes":"x"}}'],
  ['type number', '{"data":{"type":1,"attributes":{"name":"x"}}}'],
  ['name object', attributes({ name: { a: 1 } })],
  ['name too long', attributes({ name: 'x'.repeat(300) })],
  ['name NUL', attributes({ name: 'a\u0000' })],
  ['huge position', attributes({ name: 'x', position: 1e308 })],
  ['float position', attributes({ name: 'x', position: 1.5 })],
  ['negative position', attributes({ name: 'x', position: -1 })],
  ['properties object', attributes({ name: 'x', properties: { a: 1 } })],
  ['chat channel missing name', attributes({ name: 'x', chat_channels: [{ id: '1' }] })],
  [
    'duplicate property',
    attributes({
      name: 'x',
      properties: [
        { catalog_property_id: '5f1b0b8e-1c1a-4a8e-9b7a-2f3c4d5e6f70', value: 'a' },
        { catalog_property_id: '5f1b0b8e-1c1a-4a8e-9b7a-2f3c4d5e6f70', value: 'b' },
      ],
    }),
  ],
  ['deep nesting', `{"data":${'['.repeat(2000)}${']'.repeat(2000)}}`],
  ['prototype keys', '{"data":{"type":"environments","attributes":{"name":"x","__proto__":{"admin":true}}}}'],
  ['slug with spaces', attributes({ name: 'x', slug: 'a b' })],
];
const queries = [
  'page[number]=-1',
  'page[number]=1e3',
  'page[size]=999999999999',
  'filter[created_at][gt]=2026-99-99',
  'filter[created_at][gt]=9999999-01-01',
  'filter[name][in]=',
  'sort=',
  'sort=-',
  'include=',
  'filter[search]=%25%5F%5C',
  'filter[name]=%00',
  'filter=1',
  'page=1',
  'filter[name][eq][x]=1',
];
const ids = ['%00', 'x'.repeat(5000), '00000000-0000-0000-0000-00000000000g', "'; drop table environments; --", '..%2F..%2Fetc'];

describe('environments never answer 5xx to bad input', () => {
  it.each(bodies)('POST with %s', async (_name, body) => {
    const before = await db.knex('environments').count({ n: '*' });
    const res = await fetch(`${server.url}/v1/environments`, {
      method: 'POST',
      headers: { [PRINCIPAL_HEADER]: await principal('POST', '/v1/environments'), 'content-type': 'application/vnd.api+json' },
      body,
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect((await res.json()).errors[0].status).toBe(String(res.status));
    expect(await db.knex('environments').count({ n: '*' })).toEqual(before);
  });

  it.each(queries)('GET ?%s', async (query) => {
    const res = await fetch(`${server.url}/v1/environments?${query}`, {
      headers: { [PRINCIPAL_HEADER]: await principal('GET', '/v1/environments') },
    });
    expect(res.status).toBeLessThan(500);
  });

  it.each(ids)('GET, PUT and DELETE /v1/environments/%s', async (id) => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await fetch(`${server.url}/v1/environments/${id}`, {
        method,
        headers: { [PRINCIPAL_HEADER]: await principal(method, `/v1/environments/${id}`), 'content-type': 'application/vnd.api+json' },
        body: method === 'PUT' ? attributes({ name: 'y' }) : undefined,
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
  });
});
