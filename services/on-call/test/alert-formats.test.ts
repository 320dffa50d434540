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

async function source(source_type: string) {
  const created = await h.create('alert_sources', { name: `source ${randomUUID()}`, source_type });
  expect(created.status).toBe(201);
  return { id: created.body.data.id as string, secret: created.body.data.attributes.secret as string };
}

const alertsOf = async (sourceId: string) =>
  (await h.call('GET', `/v1/alerts?filter[alert_source_id]=${sourceId}&page[size]=100`)).body.data as {
    id: string;
    attributes: Record<string, unknown>;
  }[];

describe('monitoring formats', () => {
  it("takes Grafana alerting's webhook: an alert per fingerprint, firing again deduplicates, resolved resolves", async () => {
    const s = await source('grafana');
    const firing = await ingest(h, s.id, s.secret, fixture('grafana-firing.json'));
    expect(firing.status).toBe(202);
    expect(firing.body.meta.outcomes).toEqual(['created', 'created']);
    const alerts = await alertsOf(s.id);
    const memory = alerts.find((a) => a.attributes.deduplication_key === 'c6eadffa33fcdf37')!;
    expect(memory.attributes).toMatchObject({
      source: 'grafana',
      summary: 'This alert was triggered for zone us-1',
      description: 'The system has high memory usage',
      external_url: 'https://play.grafana.org/alerting/1afz29v7z/edit',
      started_at: '2021-10-12T07:51:03.157Z',
    });
    expect(memory.attributes.labels).toContainEqual({ key: 'zone', value: 'us-1' });
    expect(alerts.find((a) => a.attributes.deduplication_key === 'bc97ff14869b13e3')!.attributes.summary).toBe('High CPU usage');

    expect((await ingest(h, s.id, s.secret, fixture('grafana-firing.json'))).body.meta.outcomes).toEqual(['deduplicated', 'deduplicated']);
    expect((await ingest(h, s.id, s.secret, fixture('grafana-resolved.json'))).body.meta.outcomes).toEqual(['resolved']);
    const after = await alertsOf(s.id);
    expect(after.find((a) => a.id === memory.id)!.attributes).toMatchObject({ status: 'resolved', received_count: 2 });
    expect(after.filter((a) => a.attributes.status === 'triggered')).toHaveLength(1);
  });

  it('refuses a legacy Grafana dashboard alert with a 422 that says what to send', async () => {
    const s = await source('grafana');
    const legacy = { title: '[Alerting] Panel', ruleId: 1, ruleName: 'Panel', state: 'alerting', evalMatches: [] };
    const answer = await ingest(h, s.id, s.secret, legacy);
    expect(answer.status).toBe(422);
    expect(answer.body.errors[0].detail).toMatch(/legacy Grafana/);
    expect((await h.call('GET', `/v1/alert_sources/${s.id}`)).body.data.attributes.last_error_message).toMatch(/legacy Grafana/);
  });

  it("takes Datadog's webhook: one alert per aggregation key, Triggered again deduplicates, Recovered resolves", async () => {
    const s = await source('datadog');
    const triggered = await ingest(h, s.id, s.secret, fixture('datadog-triggered.json'));
    expect(triggered.status).toBe(202);
    expect(triggered.body.meta.outcomes).toEqual(['created']);
    const [alert] = await alertsOf(s.id);
    expect(alert.attributes).toMatchObject({
      source: 'datadog',
      summary: '[Triggered on {host:web-3}] CPU load is high',
      external_url: 'https://app.datadoghq.com/event/event?id=7480469613542453716',
      deduplication_key: '2e3bf5a6dd3e2c8c5d0b6f1f0a6f9e2b',
      external_id: '7480469613542453716',
      started_at: new Date(1795594321000).toISOString(),
    });
    expect(alert.attributes.description).toMatch(/CPU load is above 4/);
    expect(alert.attributes.labels).toEqual(
      expect.arrayContaining([
        { key: 'env', value: 'prod' },
        { key: 'monitor', value: '' },
      ]),
    );
    const again = { ...JSON.parse(fixture('datadog-triggered.json')), alert_transition: 'Re-Triggered' };
    expect((await ingest(h, s.id, s.secret, again)).body.meta.outcomes).toEqual(['deduplicated']);
    expect((await ingest(h, s.id, s.secret, fixture('datadog-recovered.json'))).body.meta.outcomes).toEqual(['resolved']);
    expect((await alertsOf(s.id))[0].attributes).toMatchObject({ status: 'resolved', received_count: 2 });
    // Recovered with nothing to find its alert by, and a payload with no title: 422, nothing made.
    const { aggreg_key: _k, alert_id: _a, ...keyless } = JSON.parse(fixture('datadog-recovered.json'));
    expect((await ingest(h, s.id, s.secret, keyless)).status).toBe(422);
    expect((await ingest(h, s.id, s.secret, { alert_transition: 'Triggered', aggreg_key: 'k' })).status).toBe(422);
    expect(await alertsOf(s.id)).toHaveLength(1);
  });
});
