import { randomUUID } from 'node:crypto';
import { signAsGateway } from '@firewatch/testing';
import type { HarnessAnswer } from '@firewatch/service-testing';
import type { CallOptions, OnCallHarness } from './on-call-harness.js';

/** Posts `body` to a source's ingestion path as the gateway would: an ingestion principal and the secret header. */
export async function ingest(
  h: OnCallHarness,
  sourceId: string,
  secret: string | undefined,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<HarnessAnswer> {
  const path = `/ingest/alert_sources/${sourceId}`;
  const principal = await signAsGateway({ kind: 'ingestion', source_id: sourceId }, 'on-call', 'POST', path);
  return h.call('POST', path, {
    principal: null,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: {
      'x-firewatch-principal': principal,
      'content-type': 'application/json',
      ...(secret === undefined ? {} : { 'x-firewatch-source-secret': secret }),
      ...headers,
    },
  });
}

/** A new source keyed by the payload's `id` (`$.id`), as the deduplication tests want it: its id and secret. */
export async function createKeyedSource(h: OnCallHarness, options: CallOptions = {}): Promise<{ id: string; secret: string }> {
  const created = await h.create(
    'alert_sources',
    { name: `source ${randomUUID()}`, deduplicate_alerts_by_key: true, deduplication_key_kind: 'payload', deduplication_key_path: '$.id' },
    options,
  );
  return { id: created.body.data.id as string, secret: created.body.data.attributes.secret as string };
}
