import { signAsGateway, testPrincipal } from '@firewatch/testing';
import { JSONAPI, newKey } from './support/harness.js';
import { startOAuthHarness, type OAuthHarness } from './support/oauth-harness.js';

let h: OAuthHarness;
beforeAll(async () => {
  h = await startOAuthHarness();
});
afterAll(async () => {
  await h.close();
});

async function send(base: string, method: string, path: string, body: unknown, key: string) {
  const principal = testPrincipal({ team_id: h.team.id, user_id: h.team.userId });
  const res = await fetch(`${base}${path}`, {
    method,
    body: JSON.stringify(body),
    headers: {
      'content-type': JSONAPI,
      'idempotency-key': key,
      'x-firewatch-principal': await signAsGateway(principal, 'auth', method, path),
    },
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

const keysOfTeam = async () => (await h.db.knex('api_keys').where({ team_id: h.team.id })).length;

describe('Idempotency-Key on the auth service', () => {
  it('does not keep a created key: a replay, on either replica, is a 409 and creates no second key', async () => {
    const before = await keysOfTeam();
    const first = await send(h.url, 'POST', '/v1/api_keys', newKey({ name: 'Retried bot' }), 'create-1');
    expect(first.status).toBe(201);
    expect(first.headers.get('cache-control')).toBe('no-store');
    for (const base of [h.url, h.replicaUrl]) {
      const again = await send(base, 'POST', '/v1/api_keys', newKey({ name: 'Retried bot' }), 'create-1');
      expect([again.status, again.body.errors[0].code]).toEqual([409, 'idempotency_answer_not_kept']);
    }
    expect(await keysOfTeam()).toBe(before + 1);
    const row = await h.db.knex('idempotency_keys').where({ key: 'create-1' }).first();
    expect(row.body).toBeNull();
    expect(JSON.stringify(row)).not.toContain(first.body.data.attributes.token);
  });

  it('replays an update on the other replica: the replicas share the kept answer', async () => {
    const created = await send(h.url, 'POST', '/v1/api_keys', newKey({ name: 'Updated bot' }), 'create-2');
    const path = `/v1/api_keys/${created.body.data.id}`;
    const update = { data: { type: 'api_keys', id: created.body.data.id, attributes: { description: 'first' } } };
    const first = await send(h.url, 'PUT', path, update, 'update-1');
    expect(first.status).toBe(200);
    const again = await send(h.replicaUrl, 'PUT', path, update, 'update-1');
    expect([again.status, again.body, again.headers.get('idempotent-replayed')]).toEqual([200, first.body, 'true']);
  });
});
