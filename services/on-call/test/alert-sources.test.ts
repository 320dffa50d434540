import { randomUUID } from 'node:crypto';
import { startOnCall, type OnCallHarness } from './support/on-call-harness.js';
import { ingest } from './support/ingest.js';

let h: OnCallHarness;

beforeAll(async () => {
  h = await startOnCall({ eventPattern: 'alert_source.*' });
});

afterAll(async () => h?.close());

describe('alert sources', () => {
  it('creates with the secret shown once, reads it masked, updates with PUT, lists and deletes, each with its event', async () => {
    const created = await h.create('alert_sources', { name: 'Prometheus', source_type: 'alertmanager' });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const { id, attributes } = created.body.data;
    expect(attributes).toMatchObject({
      name: 'Prometheus',
      source_type: 'alertmanager',
      enabled: true,
      status: 'setup_complete',
      webhook_endpoint: `/ingest/alert_sources/${id}`,
      deduplicate_alerts_by_key: false,
      deduplication_key_kind: 'payload',
      owner_group_ids: [],
      last_error_message: null,
    });
    expect(attributes.secret).toMatch(/^fwas_[A-Za-z0-9_-]{43}$/);
    const masked = `fwas_****${attributes.secret.slice(-4)}`;

    const read = await h.call('GET', `/v1/alert_sources/${id}`);
    expect(read.body.data.attributes.secret).toBe(masked);
    expect(JSON.stringify(read.body)).not.toContain(attributes.secret);
    const stored = await h.db.knex('alert_sources').where({ id }).first();
    expect(JSON.stringify(stored)).not.toContain(attributes.secret);

    const updated = await h.call('PUT', `/v1/alert_sources/${id}`, {
      body: {
        data: {
          type: 'alert_sources',
          attributes: {
            enabled: false,
            deduplicate_alerts_by_key: true,
            deduplication_key_path: '$.id',
            deduplication_key_regexp: 'job-(\\d+)',
          },
        },
      },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.attributes).toMatchObject({ enabled: false, deduplication_key_path: '$.id', secret: masked });

    const list = await h.call('GET', '/v1/alert_sources?filter[source_types]=alertmanager');
    expect(list.body.data.map((s: { id: string }) => s.id)).toEqual([id]);
    expect((await h.call('GET', '/v1/alert_sources?filter[enabled]=true')).body.data).toEqual([]);

    expect((await h.call('DELETE', `/v1/alert_sources/${id}`)).status).toBe(200);
    expect((await h.call('GET', `/v1/alert_sources/${id}`)).status).toBe(404);
    await h.events!.waitFor((es) => es.filter((e) => (e.body.data as { id: string }).id === id).length === 3);
    const mine = h.events!.events.filter((e) => (e.body.data as { id: string }).id === id);
    expect(mine.map((e) => e.routingKey)).toEqual(['alert_source.created', 'alert_source.updated', 'alert_source.deleted']);
    // Events never carry the secret whole.
    expect(JSON.stringify(mine)).not.toContain(attributes.secret);
  });

  it('rotates the secret: the new one is shown once and works, the old one stops', async () => {
    const created = await h.create('alert_sources', { name: 'Webhook' });
    const { id } = created.body.data;
    const old = created.body.data.attributes.secret as string;
    expect((await ingest(h, id, old, { summary: 'before' })).status).toBe(202);

    const rotated = await h.call('POST', `/v1/alert_sources/${id}/rotate_secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    expect(rotated.headers.get('etag')).toBeNull();
    const fresh = rotated.body.data.attributes.secret as string;
    expect(fresh).toMatch(/^fwas_/);
    expect(fresh).not.toBe(old);
    expect((await h.call('GET', `/v1/alert_sources/${id}`)).body.data.attributes.secret).toBe(`fwas_****${fresh.slice(-4)}`);
    expect((await ingest(h, id, old, { summary: 'old secret' })).status).toBe(401);
    expect((await ingest(h, id, fresh, { summary: 'new secret' })).status).toBe(202);
    // An observer may read sources but not rotate their secret.
    expect(
      (await h.call('POST', `/v1/alert_sources/${id}/rotate_secret`, { principal: { on_call_role: 'observer', capabilities: ['read'] } }))
        .status,
    ).toBe(403);
  });

  it('refuses bad input with a 422 at its pointer, and another team sees nothing', async () => {
    const bad = async (attributes: Record<string, unknown>, pointer: string) => {
      const answer = await h.create('alert_sources', { name: 'x', ...attributes });
      expect(answer.status).toBe(422);
      expect(answer.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toContain(pointer);
    };
    await bad({ source_type: 'pagerduty' }, '/data/attributes/source_type');
    await bad({ deduplicate_alerts_by_key: true }, '/data/attributes/deduplication_key_path');
    await bad({ deduplication_key_path: 'not a path' }, '/data/attributes/deduplication_key_path');
    await bad({ deduplication_key_path: '$.a', deduplication_key_regexp: '(a' }, '/data/attributes/deduplication_key_regexp');
    await bad({ alert_template_attributes: { title: '{{ $.[ }} down' } }, '/data/attributes/alert_template_attributes/title');
    await bad({ alert_urgency_id: randomUUID() }, '/data/attributes/alert_urgency_id');
    await bad({ secret: 'mine' }, '/data/attributes/secret');
    await bad({ sourceable_attributes: { auto_resolve: true } }, '/data/attributes/sourceable_attributes/resolve_state');
    expect((await h.create('alert_sources', {})).status).toBe(422);

    const mine = (await h.create('alert_sources', { name: 'Mine' })).body.data.id;
    const other = { principal: { team_id: 2 } };
    expect((await h.call('GET', `/v1/alert_sources/${mine}`, other)).status).toBe(404);
    expect((await h.call('POST', `/v1/alert_sources/${mine}/rotate_secret`, other)).status).toBe(404);
    expect((await h.call('GET', '/v1/alert_sources', other)).body.data).toEqual([]);
  });
});
