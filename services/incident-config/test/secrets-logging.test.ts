import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
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
import { MEDIA, testSecretBox } from './support/incident-config-harness.js';

// The service logs at its most verbose here, and whatever a request does, a secret's value is in no line.
let db: TestDatabase;
let server: Listening;
let logged = '';

beforeAll(async () => {
  db = await createTestDatabase();
  await migrate(db.knex, migrations);
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => {
    logged += chunk.toString('utf8');
  });
  server = await listen(
    createIncidentConfigApp({
      knex: db.knex as Knex,
      logger: createLogger({ service: 'test', level: 'debug', stream }),
      principals: createPrincipalVerifier({ publicKeys: TEST_PRINCIPAL_KEYS.publicKeys, audience: 'incident-config' }),
      secretBox: testSecretBox,
    }),
  );
});

afterAll(async () => {
  await server?.close();
  await db?.drop();
});

async function call(method: string, path: string, body?: unknown) {
  const headers = { [PRINCIPAL_HEADER]: await signAsGateway(testPrincipal(), 'incident-config', method, path), 'content-type': MEDIA };
  const res = await fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

const secret = (attributes: Record<string, unknown>) => ({ data: { type: 'secrets', attributes } });

it('logs no secret value, on success or on refusal', async () => {
  const value = `s3cr3t-${randomUUID()}`;
  const created = await call('POST', '/v1/secrets', secret({ name: 'logged', secret: value }));
  expect(created.status).toBe(201);
  const id = created.body.data.id;
  expect((await call('PUT', `/v1/secrets/${id}`, secret({ name: 'logged', secret: `${value}-2` }))).status).toBe(200);
  expect((await call('POST', '/v1/secrets', secret({ name: 'logged', secret: value }))).status).toBe(409);
  expect((await call('POST', '/v1/secrets', secret({ name: 'bad', secret: value, kind: 'nope' }))).status).toBe(422);
  expect((await call('PUT', `/v1/secrets/${id}`, secret({ secret: value }))).status).toBe(422);
  expect((await call('DELETE', `/v1/secrets/${id}`)).status).toBe(200);
  // Something was logged (the requests), so the absence below means something.
  await new Promise((r) => setTimeout(r, 50));
  expect(logged).toContain('/v1/secrets');
  expect(logged).not.toContain(value);
});
