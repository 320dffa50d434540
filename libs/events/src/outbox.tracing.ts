import { openSpan, SpanKind, tracingEnabled, type OpenSpan } from '@firewatch/tracing';
import type { BatchOutcome, OutboxRow } from './outbox.publisher.js';

/**
 * A producer span per row of a batch, for the rows written under a trace (events of jobs
 * carry none and start none). Each such row's envelope is given its publish span's
 * `traceparent`, so consumers continue from the publish. Returns what ends the spans once
 * the transport answered: confirmed rows succeed, refused and unsent ones fail.
 */
export function tracePublish(rows: OutboxRow[]): (outcome: BatchOutcome) => void {
  if (!tracingEnabled()) return () => undefined;
  const spans = new Map<OutboxRow, OpenSpan>();
  for (const row of rows) {
    const parent = row.payload.traceparent;
    if (typeof parent !== 'string') continue;
    const span = openSpan(`publish ${row.type}`, {
      kind: SpanKind.PRODUCER,
      parent,
      attributes: { 'messaging.message.id': row.id, 'messaging.destination.name': row.type },
    });
    row.payload = { ...row.payload, traceparent: span.traceparent };
    spans.set(row, span);
  }
  return (outcome) => {
    for (const row of outcome.confirmed) spans.get(row)?.end();
    for (const { row, error } of outcome.poisoned) spans.get(row)?.end(new Error(error));
    for (const row of outcome.unsent) spans.get(row)?.end(outcome.failure ?? new Error('not sent'));
  };
}
