import { randomUUID } from 'node:crypto';
import { createMetrics, readSample } from '@firewatch/metrics';
import { startServiceHarness, type ServiceHarness } from '@firewatch/service-testing';
import { migrations } from '../migrations/index.js';
import { createOnCallApp } from '../src/app.js';
import { ingest } from './support/ingest.js';
import type { OnCallHarness } from './support/on-call-harness.js';

const metrics = createMetrics({ service: 'on-call', defaultMetrics: false });
let h: ServiceHarness;

beforeAll(async () => {
  h = await startServiceHarness({ audience: 'on-call', migrations, createApp: (deps) => createOnCallApp({ ...deps, metrics }) });
});

afterAll(async () => h?.close());

const scrape = async () => (await metrics.registry.metrics()) as string;

async function source(attributes: Record<string, unknown> = {}) {
  const created = await h.call('POST', '/v1/alert_sources', {
    body: { data: { type: 'alert_sources', attributes: { name: `source ${randomUUID()}`, ...attributes } } },
  });
  return { id: created.body.data.id as string, secret: created.body.data.attributes.secret as string };
}

describe('alert ingestion metrics', () => {
  it('counts alerts ingested and deduplicated by source type, and refused payloads by reason, at /metrics', async () => {
    const s = await source({ deduplicate_alerts_by_key: true, deduplication_key_path: '$.id' });
    const post = (body: unknown, headers?: Record<string, string>) => ingest(h as OnCallHarness, s.id, s.secret, body, headers);
    expect((await post({ summary: 'disk', id: 'k1' })).status).toBe(202);
    expect((await post({ summary: 'disk', id: 'k1' })).status).toBe(202);
    expect((await post({ nothing: true })).status).toBe(422);
    expect((await post('{not json')).status).toBe(400);
    expect((await post({ summary: 'x' }, { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await ingest(h as OnCallHarness, s.id, 'fwas_wrong', { summary: 'x' })).status).toBe(401);
    const disabled = await source({ enabled: false });
    expect((await ingest(h as OnCallHarness, disabled.id, disabled.secret, { summary: 'x' })).status).toBe(202);
    await h.call('POST', '/v1/alerts', { body: { data: { type: 'alerts', attributes: { summary: 'by the API' } } } });

    const text = await scrape();
    const ingested = (outcome: string, from = 'generic_webhook') =>
      readSample(text, 'firewatch_alerts_ingested_total', { source: from, outcome });
    const refused = (reason: string) => readSample(text, 'firewatch_alert_payloads_refused_total', { source: 'generic_webhook', reason });
    expect(ingested('created')).toBe(1);
    expect(ingested('deduplicated')).toBe(1);
    expect(ingested('created', 'api')).toBe(1);
    expect(refused('unmappable_payload')).toBe(1);
    expect(refused('invalid_json')).toBe(1);
    expect(refused('unsupported_media_type')).toBe(1);
    expect(refused('source_disabled')).toBe(1);
    // A wrong secret names no source: it is not a refused payload of one (the gateway counts its 401s).
    expect(text).not.toMatch(/reason="invalid_source_secret"/);
  });
});
