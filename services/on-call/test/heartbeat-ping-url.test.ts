import { signAsGateway } from '@firewatch/testing';
import { startOnCall, type OnCallHarness } from './support/on-call-harness.js';

let h: OnCallHarness;

beforeAll(async () => {
  h = await startOnCall({ eventPattern: 'heartbeat.*' });
});

afterAll(async () => h?.close());

const nightly = {
  name: 'Nightly backup',
  alert_summary: 'The nightly backup did not report',
  interval: 5,
  interval_unit: 'minutes',
  notification_target_type: 'Group',
  notification_target_id: 'c3f8a1d2-2b1e-4c55-9a0e-6f1b2c3d4e5f',
};

/** A ping through the gateway: an ingestion principal for the path and the secret header (the gateway takes it from the bearer or the path). */
async function pingUrl(id: string, secret: string | undefined, method: 'GET' | 'POST' = 'GET', principalFor = id) {
  const path = `/ingest/heartbeats/${id}`;
  const principal = await signAsGateway({ kind: 'ingestion', source_id: principalFor }, 'on-call', method, path);
  return h.call(method, path, {
    principal: null,
    headers: { 'x-firewatch-principal': principal, ...(secret === undefined ? {} : { 'x-firewatch-source-secret': secret }) },
  });
}

const read = async (id: string) => (await h.call('GET', `/v1/heartbeats/${id}`)).body.data.attributes;

describe("a heartbeat's ping URL", () => {
  it('shows the secret once, pings with it by GET or POST without an API key, and emits heartbeat.pinged', async () => {
    const created = await h.create('heartbeats', nightly);
    const { id } = created.body.data;
    const secret = created.body.data.attributes.secret as string;
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect((await read(id)).secret).toBe(`fwhb_****${secret.slice(-4)}`);

    expect((await pingUrl(id, secret)).status).toBe(204);
    const after = await read(id);
    expect(after.status).toBe('active');
    expect(Date.parse(after.expires_at) - Date.parse(after.last_pinged_at)).toBe(5 * 60_000);
    expect((await pingUrl(id, secret, 'POST')).status).toBe(204);
    await h.events!.waitFor(
      (es) => es.filter((e) => e.body.type === 'heartbeat.pinged' && (e.body.data as { id: string }).id === id).length === 2,
    );
  });

  it("refuses a wrong or missing secret, another heartbeat's, and a request not through the gateway, with 401 and no ping", async () => {
    const a = (await h.create('heartbeats', nightly)).body.data;
    const b = (await h.create('heartbeats', nightly)).body.data;
    expect((await pingUrl(a.id, 'fwhb_wrong')).status).toBe(401);
    expect((await pingUrl(a.id, undefined)).status).toBe(401);
    expect((await pingUrl(a.id, b.attributes.secret)).status).toBe(401);
    expect((await pingUrl('00000000-0000-4000-8000-000000000000', a.attributes.secret)).status).toBe(401);
    // A principal for another id, or none.
    expect((await pingUrl(a.id, a.attributes.secret, 'GET', b.id)).status).toBe(401);
    expect((await h.call('GET', `/ingest/heartbeats/${a.id}`, { principal: null })).status).toBe(401);
    expect((await read(a.id)).status).toBe('waiting');
  });

  it('rotate_secret answers a new secret once; the old one is refused from then on', async () => {
    const created = (await h.create('heartbeats', nightly)).body.data;
    const rotated = await h.call('POST', `/v1/heartbeats/${created.id}/rotate_secret`);
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.data.attributes.secret as string;
    expect(fresh).toMatch(/^fwhb_/);
    expect(fresh).not.toBe(created.attributes.secret);
    expect((await pingUrl(created.id, created.attributes.secret)).status).toBe(401);
    expect((await pingUrl(created.id, fresh)).status).toBe(204);
    // A read-only key cannot rotate; another team cannot see it.
    expect(
      (await h.call('POST', `/v1/heartbeats/${created.id}/rotate_secret`, { principal: { scopes: ['oc.heartbeats:read'] } })).status,
    ).toBe(403);
    expect((await h.call('POST', `/v1/heartbeats/${created.id}/rotate_secret`, { principal: { team_id: 2 } })).status).toBe(404);
  });

  it('a heartbeat made before secrets has none (null) and its ping URL refuses until rotate_secret', async () => {
    const { id } = (await h.create('heartbeats', nightly)).body.data;
    await h.db.knex('heartbeats').where({ id }).update({ secret_hash: null, secret_hint: null });
    expect((await read(id)).secret).toBeNull();
    expect((await pingUrl(id, 'fwhb_anything')).status).toBe(401);
  });
});
