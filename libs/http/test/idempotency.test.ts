import { createPrincipalVerifier, PRINCIPAL_HEADER } from '@firewatch/auth';
import { BadRequestError } from '@firewatch/errors';
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
import express from 'express';
import { createServiceApp, idempotencyMigration } from '../src/index.js';

let db: TestDatabase;
let server: Listening;
let broken = 0;
let releaseSlow: () => void = () => undefined;

beforeAll(async () => {
  db = await createTestDatabase('fw_idem');
  await idempotencyMigration.up(db.knex);
  await db.knex.schema.createTable('things', (t) => {
    t.increments('id');
    t.text('name');
  });
  const router = express
    .Router()
    .post('/v1/things', async (req, res) => {
      const name = (req.body as { data?: { name?: string } }).data?.name;
      if (!name) throw new BadRequestError('name is required');
      const [row] = await db.knex('things').insert({ name }).returning('id');
      res
        .status(201)
        .location(`/v1/things/${row.id}`)
        .json({ data: { id: String(row.id), name } });
    })
    .post('/v1/slow', async (_req, res) => {
      await new Promise<void>((resolve) => (releaseSlow = resolve));
      res.status(201).json({ data: { slow: true } });
    })
    .post('/v1/broken', () => {
      broken += 1;
      throw new Error('boom');
    })
    .post('/v1/secrets', (_req, res) => {
      res
        .status(201)
        .set('Cache-Control', 'no-store')
        .json({ data: { token: 'secret' } });
    });
  const app = createServiceApp({
    logger: createLogger({ service: 'http-test', level: 'silent' }),
    principals: createPrincipalVerifier({ publicKeys: TEST_PRINCIPAL_KEYS.publicKeys, audience: 'http-test' }),
    routers: [router],
    idempotency: { knex: db.knex },
  });
  server = await listen(app);
});

afterAll(async () => {
  await server.close();
  await db.drop();
});

async function post(path: string, body: unknown, key?: string, principal = testPrincipal()): Promise<Response> {
  const headers: Record<string, string> = {
    'content-type': 'application/vnd.api+json',
    [PRINCIPAL_HEADER]: await signAsGateway(principal, 'http-test', 'POST', path),
  };
  if (key !== undefined) headers['idempotency-key'] = key;
  return fetch(`${server.url}${path}`, { method: 'POST', body: JSON.stringify(body), headers });
}

const things = async () => Number((await db.knex('things').count<{ count: string }[]>('* as count'))[0].count);

describe('Idempotency-Key', () => {
  it('replays the first answer (status, Location, body) to the same request, and does nothing', async () => {
    const first = await post('/v1/things', { data: { name: 'a' } }, 'key-1');
    expect(first.status).toBe(201);
    const body = await first.text();
    const again = await post('/v1/things', { data: { name: 'a' } }, 'key-1');
    expect([again.status, await again.text()]).toEqual([201, body]);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await things()).toBe(1);
  });

  it('answers 422 to the same key with another body or another path, and changes nothing', async () => {
    await post('/v1/things', { data: { name: 'b' } }, 'key-2');
    const count = await things();
    for (const res of [
      await post('/v1/things', { data: { name: 'c' } }, 'key-2'),
      await post('/v1/things?x=1', { data: { name: 'b' } }, 'key-2'),
    ]) {
      expect(res.status).toBe(422);
      expect((await res.json()).errors[0]).toMatchObject({ code: 'idempotency_key_reused', source: { header: 'Idempotency-Key' } });
    }
    expect(await things()).toBe(count);
  });

  it('keeps keys per credential: another credential with the same key runs anew', async () => {
    const count = await things();
    await post('/v1/things', { data: { name: 'd' } }, 'key-3');
    const other = testPrincipal({ credential: { type: 'api_key', id: 'other-key', kind: 'global' } });
    const res = await post('/v1/things', { data: { name: 'd' } }, 'key-3', other);
    expect([res.status, res.headers.get('idempotent-replayed')]).toEqual([201, null]);
    expect(await things()).toBe(count + 2);
  });

  it('answers 409 to a replay while the first request still runs, then replays its answer', async () => {
    const first = post('/v1/slow', {}, 'key-4');
    for (let i = 0; i < 100 && (await db.knex('idempotency_keys').where({ key: 'key-4' })).length === 0; i++)
      await new Promise((r) => setTimeout(r, 10));
    const during = await post('/v1/slow', {}, 'key-4');
    expect(during.status).toBe(409);
    expect((await during.json()).errors[0]).toMatchObject({ code: 'idempotency_key_in_use' });
    releaseSlow();
    expect((await first).status).toBe(201);
    const after = await post('/v1/slow', {}, 'key-4');
    expect([after.status, after.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
  });

  it('does not keep a 5xx answer: a retry runs again', async () => {
    expect((await post('/v1/broken', {}, 'key-5')).status).toBe(500);
    expect((await post('/v1/broken', {}, 'key-5')).status).toBe(500);
    expect(broken).toBe(2);
  });

  it('keeps a 4xx answer: a replay of a bad request gets the same 4xx', async () => {
    const first = await post('/v1/things', { data: {} }, 'key-6');
    expect(first.status).toBe(400);
    const again = await post('/v1/things', { data: {} }, 'key-6');
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([400, 'true']);
  });

  it('forgets a key after 24 hours, and takes over a run abandoned for more than 60 seconds', async () => {
    await post('/v1/things', { data: { name: 'e' } }, 'key-7');
    await db
      .knex('idempotency_keys')
      .where({ key: 'key-7' })
      .update({ created_at: db.knex.raw("now() - interval '25 hours'") });
    const count = await things();
    const expired = await post('/v1/things', { data: { name: 'e' } }, 'key-7');
    expect([expired.status, expired.headers.get('idempotent-replayed')]).toEqual([201, null]);
    expect(await things()).toBe(count + 1);

    await db.knex('idempotency_keys').insert({
      scope: '1:api_key:test-key',
      key: 'key-8',
      fingerprint: 'x',
      claim: crypto.randomUUID(),
      created_at: db.knex.raw("now() - interval '61 seconds'"),
    });
    expect((await post('/v1/things', { data: { name: 'f' } }, 'key-8')).status).toBe(201);
  });

  it('purges expired rows as new keys are claimed', async () => {
    await db.knex('idempotency_keys').insert({
      scope: 's',
      key: 'old',
      fingerprint: 'x',
      claim: crypto.randomUUID(),
      status: 201,
      created_at: db.knex.raw("now() - interval '2 days'"),
    });
    await post('/v1/things', { data: { name: 'g' } }, 'key-9');
    expect(await db.knex('idempotency_keys').where({ key: 'old' })).toEqual([]);
  });

  it('does not keep an answer marked no-store (a secret): a replay is a 409, not the secret again', async () => {
    expect((await post('/v1/secrets', {}, 'key-10')).status).toBe(201);
    const again = await post('/v1/secrets', {}, 'key-10');
    expect(again.status).toBe(409);
    expect((await again.json()).errors[0]).toMatchObject({ code: 'idempotency_answer_not_kept' });
    expect((await db.knex('idempotency_keys').where({ key: 'key-10' }).first()).body).toBeNull();
  });

  it('refuses a key that is empty or longer than 255 characters with a 400', async () => {
    for (const key of ['', 'k'.repeat(256)]) {
      const res = await post('/v1/things', { data: { name: 'h' } }, key);
      expect(res.status).toBe(400);
      expect((await res.json()).errors[0]).toMatchObject({ code: 'invalid_idempotency_key' });
    }
  });
});
