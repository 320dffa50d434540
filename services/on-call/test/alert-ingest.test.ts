import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { startOnCall, type OnCallHarness } from './support/on-call-harness.js';
import { ingest } from './support/ingest.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

let h: OnCallHarness;

beforeAll(async () => {
  h = await startOnCall({ eventPattern: 'alert.*' });
});

afterAll(async () => h?.close());

async function source(attributes: Record<string, unknown> = {}) {
  const created = await h.create('alert_sources', { name: `source ${randomUUID()}`, ...attributes });
  expect(created.status).toBe(201);
  return { id: created.body.data.id as string, secret: created.body.data.attributes.secret as string };
}

const alertsOf = async (sourceId: string) =>
  (await h.call('GET', `/v1/alerts?filter[alert_source_id]=${sourceId}&page[size]=100`)).body.data as {
    id: string;
    attributes: Record<string, unknown>;
  }[];

const sourceRead = async (id: string) => (await h.call('GET', `/v1/alert_sources/${id}`)).body.data.attributes;

describe('alert ingestion', () => {
  it('makes an alert of a generic payload by the template, answering 202 after the commit', async () => {
    const s = await source({
      alert_template_attributes: {
        title: '{{ $.check.name }} failed on {{ $.host }}',
        description: '$.details',
        external_url: '$.links[0]',
      },
    });
    const answer = await ingest(h, s.id, s.secret, {
      check: { name: 'disk' },
      host: 'db-1',
      details: 'full',
      links: ['https://x.example/1'],
    });
    expect(answer.status).toBe(202);
    expect(answer.body.meta.outcomes).toEqual(['created']);
    const [alert] = await alertsOf(s.id);
    expect(alert.id).toBe(answer.body.data[0].id);
    expect(alert.attributes).toMatchObject({
      summary: 'disk failed on db-1',
      description: 'full',
      external_url: 'https://x.example/1',
      status: 'triggered',
      source: 'generic_webhook',
      received_count: 1,
    });
    expect((await sourceRead(s.id)).status).toBe('connected');
    const events = await h.call('GET', `/v1/alerts/${alert.id}/events`);
    expect(events.body.data.map((e: { attributes: Record<string, unknown> }) => e.attributes)).toEqual([
      expect.objectContaining({ kind: 'informational', action: 'created', source: 'generic_webhook', user_id: null }),
    ]);
    await h.events!.waitFor((es) => es.some((e) => e.routingKey === 'alert.created' && (e.body.data as { id: string }).id === alert.id));
  });

  it('refuses a wrong or missing secret, an unknown source and a request without the gateway, with 401', async () => {
    const s = await source();
    expect((await ingest(h, s.id, `${s.secret}x`, { summary: 'x' })).status).toBe(401);
    expect((await ingest(h, s.id, undefined, { summary: 'x' })).status).toBe(401);
    const unknown = await ingest(h, randomUUID(), s.secret, { summary: 'x' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.errors[0].code).toBe('invalid_source_secret');
    const direct = await h.call('POST', `/ingest/alert_sources/${s.id}`, {
      principal: null,
      body: JSON.stringify({ summary: 'x' }),
      headers: { 'content-type': 'application/json', 'x-firewatch-source-secret': s.secret },
    });
    expect(direct.status).toBe(401);
    // An API principal is no ingestion principal.
    const api = await h.call('POST', `/ingest/alert_sources/${s.id}`, {
      body: JSON.stringify({ summary: 'x' }),
      headers: { 'content-type': 'application/json', 'x-firewatch-source-secret': s.secret },
    });
    expect(api.status).toBe(401);
    expect(await alertsOf(s.id)).toEqual([]);
    // A refused secret is not the source's error: nobody who knows the secret sent it.
    expect((await sourceRead(s.id)).last_error_message).toBeNull();
  });

  it('refuses bad payloads with 4xx, notes each on the source and creates nothing', async () => {
    const s = await source();
    const notJson = await ingest(h, s.id, s.secret, 'summary=x', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(notJson.status).toBe(415);
    expect((await sourceRead(s.id)).last_error_message).toMatch(/JSON/);

    const broken = await ingest(h, s.id, s.secret, '{"summary": ');
    expect(broken.status).toBe(400);
    expect((await sourceRead(s.id)).last_error_message).toBe('The payload is not valid JSON.');

    const undecodable = await ingest(h, s.id, s.secret, { summary: 'x' }, { 'content-encoding': 'gzip' });
    expect(undecodable.status).toBe(400);
    expect(undecodable.body.errors[0].code).toBe('unreadable_body');
    expect((await sourceRead(s.id)).last_error_message).toMatch(/Content-Encoding/);

    const large = await ingest(h, s.id, s.secret, JSON.stringify({ summary: 'x', blob: 'y'.repeat(600 * 1024) }));
    expect(large.status).toBe(413);
    expect((await sourceRead(s.id)).last_error_message).toMatch(/exceeds/);

    const noSummary = await ingest(h, s.id, s.secret, { status: 'bad' });
    expect(noSummary.status).toBe(422);
    expect(noSummary.body.errors[0].code).toBe('unmappable_payload');
    const read = await sourceRead(s.id);
    expect(read.last_error_message).toMatch(/maps to no summary/);
    expect(read.last_error_at).not.toBeNull();
    expect((await ingest(h, s.id, s.secret, [1, 2])).status).toBe(422);
    let deep: unknown = { summary: 'deep' };
    for (let i = 0; i < 100; i++) deep = { summary: 'deep', child: deep };
    expect((await ingest(h, s.id, s.secret, deep)).status).toBe(422);
    expect((await sourceRead(s.id)).last_error_message).toMatch(/nests deeper/);
    expect(await alertsOf(s.id)).toEqual([]);
    expect(read.status).toBe('setup_complete');
  });

  it("keeps a payload as the alert's data up to 64 KiB, a larger one not (every read and event would carry it)", async () => {
    const s = await source();
    expect((await ingest(h, s.id, s.secret, { summary: 'small', blob: 'x'.repeat(60_000) })).status).toBe(202);
    expect((await ingest(h, s.id, s.secret, { summary: 'large', blob: 'x'.repeat(300_000) })).status).toBe(202);
    const alerts = await alertsOf(s.id);
    const data = (summary: string) => alerts.find((a) => a.attributes.summary === summary)!.attributes.data as { blob?: string } | null;
    expect(data('small')?.blob).toHaveLength(60_000);
    expect(data('large')).toBeNull();
  });

  it('takes a payload with text PostgreSQL cannot store (NUL, lone surrogates) or a start time it cannot hold, rather than drop the alert', async () => {
    const s = await source();
    const answer = await ingest(h, s.id, s.secret, '{"summary":"disk\\u0000full \\ud800","tags":{"k\\u0000":"\\udc00x"}}');
    expect(answer.status).toBe(202);
    const [alert] = await alertsOf(s.id);
    expect(alert.attributes.summary).toBe('disk\uFFFDfull \uFFFD');
    expect(alert.attributes.data).toEqual({ summary: 'disk\uFFFDfull \uFFFD', tags: { 'k\uFFFD': '\uFFFDx' } });

    const am = await source({ source_type: 'alertmanager' });
    const ancient = { status: 'firing', fingerprint: 'ancient', startsAt: '-271821-04-20T00:00:00Z', labels: { alertname: 'Old' } };
    expect((await ingest(h, am.id, am.secret, { alerts: [ancient] })).status).toBe(202);
    // No start time, so the arrival's, as when startsAt is missing.
    expect(Date.parse((await alertsOf(am.id))[0].attributes.started_at as string)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("tells the gateway the source's own rate limit on its answers, and none without one", async () => {
    const limited = await source({ rate_limit_per_minute: 30 });
    const answer = await ingest(h, limited.id, limited.secret, { summary: 'limited' });
    expect(answer.status).toBe(202);
    expect(answer.headers.get('x-firewatch-ingest-limit')).toBe('30');
    // A refused payload too (the secret was good), but not a refused secret.
    expect((await ingest(h, limited.id, limited.secret, { nothing: 1 })).headers.get('x-firewatch-ingest-limit')).toBe('30');
    expect((await ingest(h, limited.id, 'fwas_wrong', { summary: 'x' })).headers.get('x-firewatch-ingest-limit')).toBeNull();
    const plain = await source();
    expect((await ingest(h, plain.id, plain.secret, { summary: 'plain' })).headers.get('x-firewatch-ingest-limit')).toBeNull();
    expect((await h.create('alert_sources', { name: 'bad limit', rate_limit_per_minute: 0 })).status).toBe(422);
    expect((await h.call('GET', `/v1/alert_sources/${limited.id}`)).body.data.attributes.rate_limit_per_minute).toBe(30);
  });

  it('answers a disabled source 202 and creates nothing', async () => {
    const s = await source({ enabled: false });
    const answer = await ingest(h, s.id, s.secret, { summary: 'x' });
    expect(answer.status).toBe(202);
    expect(answer.body.meta.ignored).toBe('source_disabled');
    expect(await alertsOf(s.id)).toEqual([]);
  });

  it('deduplicates by the source key until resolved, and auto-resolves by state', async () => {
    const s = await source({
      deduplicate_alerts_by_key: true,
      deduplication_key_path: '$.job',
      deduplication_key_regexp: 'job-(\\d+)',
      sourceable_attributes: {
        auto_resolve: true,
        resolve_state: 'ok',
        field_mappings_attributes: [{ field: 'state', json_path: '$.state' }],
      },
    });
    const first = await ingest(h, s.id, s.secret, { summary: 'backup failed', job: 'nightly job-42', state: 'failing' });
    const second = await ingest(h, s.id, s.secret, { summary: 'backup failed again', job: 'job-42 retry', state: 'failing' });
    expect(second.body.meta.outcomes).toEqual(['deduplicated']);
    expect(second.body.data[0].id).toBe(first.body.data[0].id);
    const deduplicated = await alertsOf(s.id);
    expect(deduplicated).toHaveLength(1);
    expect(deduplicated[0].attributes).toMatchObject({ deduplication_key: '42', received_count: 2, summary: 'backup failed' });

    const resolved = await ingest(h, s.id, s.secret, { job: 'job-42', state: 'ok' });
    expect(resolved.body.meta.outcomes).toEqual(['resolved']);
    const [alert] = await alertsOf(s.id);
    expect(alert.attributes.status).toBe('resolved');
    expect(alert.attributes.ended_at).not.toBeNull();
    // A resolve nothing is open for changes nothing; the same key then opens a new alert.
    expect((await ingest(h, s.id, s.secret, { job: 'job-42', state: 'ok' })).body.meta.outcomes).toEqual(['unmatched']);
    expect((await ingest(h, s.id, s.secret, { summary: 'again', job: 'job-42', state: 'failing' })).body.meta.outcomes).toEqual([
      'created',
    ]);
    expect(await alertsOf(s.id)).toHaveLength(2);
    const timeline = await h.call('GET', `/v1/alerts/${first.body.data[0].id}/events`);
    expect(timeline.body.data.map((e: { attributes: { action: string } }) => e.attributes.action)).toEqual([
      'created',
      'updated',
      'resolved',
    ]);
  });

  it('cuts a long fingerprint or external id to a key the unique index takes, and still deduplicates by it', async () => {
    // Random text does not compress: 20 000 characters would exceed a btree row (2 704 bytes).
    const long = () => Array.from({ length: 2000 }, () => randomUUID().slice(0, 10)).join('');
    const am = await source({ source_type: 'alertmanager' });
    const fingerprint = long();
    const entry = { status: 'firing', fingerprint, labels: { alertname: 'Long' } };
    const first = await ingest(h, am.id, am.secret, { alerts: [entry] });
    expect(first.status).toBe(202);
    expect((await ingest(h, am.id, am.secret, { alerts: [entry] })).body.meta.outcomes).toEqual(['deduplicated']);
    const [alert] = await alertsOf(am.id);
    expect(alert.attributes.deduplication_key).toBe(fingerprint.slice(0, 512));
    expect((await ingest(h, am.id, am.secret, { alerts: [{ ...entry, status: 'resolved' }] })).body.meta.outcomes).toEqual(['resolved']);

    const g = await source({ sourceable_attributes: { field_mappings_attributes: [{ field: 'external_id', json_path: '$.id' }] } });
    const id = long();
    expect((await ingest(h, g.id, g.secret, { summary: 'long id', id })).status).toBe(202);
    expect((await ingest(h, g.id, g.secret, { summary: 'long id', id })).body.meta.outcomes).toEqual(['deduplicated']);
  });

  it('makes one alert of racing ingests of one key', async () => {
    const s = await source({ deduplicate_alerts_by_key: true, deduplication_key_path: '$.key' });
    const answers = await Promise.all(Array.from({ length: 8 }, () => ingest(h, s.id, s.secret, { summary: 'racing', key: 'k-1' })));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(202));
    const alerts = await alertsOf(s.id);
    expect(alerts).toHaveLength(1);
    expect(alerts[0].attributes.received_count).toBe(8);
    expect(answers.map((a) => a.body.meta.outcomes[0]).sort()).toEqual(['created', ...Array(7).fill('deduplicated')]);
  });

  it("takes Alertmanager's webhook: an alert per fingerprint, firing again deduplicates, resolved resolves", async () => {
    const s = await source({ source_type: 'alertmanager' });
    const firing = await ingest(h, s.id, s.secret, fixture('alertmanager-firing.json'));
    expect(firing.status).toBe(202);
    expect(firing.body.meta.outcomes).toEqual(['created', 'created']);
    const alerts = await alertsOf(s.id);
    const db1 = alerts.find((a) => a.attributes.deduplication_key === '5e1f2d3c4b5a6978')!;
    expect(db1.attributes).toMatchObject({
      summary: 'Disk almost full on db-1',
      description: '/var has 2% left on db-1:9100',
      external_id: '5e1f2d3c4b5a6978',
      started_at: '2026-11-25T08:01:15.123Z',
    });
    expect(db1.attributes.labels).toContainEqual({ key: 'instance', value: 'db-1:9100' });
    expect(alerts.find((a) => a.attributes.deduplication_key === '0a9b8c7d6e5f4321')!.attributes.summary).toBe('DiskFull');

    expect((await ingest(h, s.id, s.secret, fixture('alertmanager-firing.json'))).body.meta.outcomes).toEqual([
      'deduplicated',
      'deduplicated',
    ]);
    expect((await ingest(h, s.id, s.secret, fixture('alertmanager-resolved.json'))).body.meta.outcomes).toEqual(['resolved']);
    const after = await alertsOf(s.id);
    expect(after.find((a) => a.id === db1.id)!.attributes).toMatchObject({ status: 'resolved', received_count: 2 });
    expect(after.filter((a) => a.attributes.status === 'triggered')).toHaveLength(1);
    expect((await ingest(h, s.id, s.secret, { alerts: 'none' })).status).toBe(422);
  });
});
