import { requestContext } from '@firewatch/logger';
import { SpanKind, tracingEnabled, withSpan } from '@firewatch/tracing';
import type { EventEnvelope } from './event-envelope.js';

/**
 * Runs a consumer's handler as part of the request that caused the event: inside its
 * request id (so the handler's log lines, and the events it writes, name it) and, when
 * the event carries a trace, inside a consumer span continuing it. Both transports
 * deliver through this.
 */
export function inEventContext(queue: string, handler: (envelope: EventEnvelope) => Promise<void>) {
  return (envelope: EventEnvelope): Promise<void> => {
    const requestId = typeof envelope.request_id === 'string' ? envelope.request_id : undefined;
    const traced = tracingEnabled() && typeof envelope.traceparent === 'string';
    const run = () =>
      traced
        ? withSpan(
            `consume ${envelope.type}`,
            {
              kind: SpanKind.CONSUMER,
              parent: envelope.traceparent,
              attributes: {
                'messaging.message.id': envelope.id,
                'messaging.consumer.group.name': queue,
                'firewatch.request_id': requestId ?? '',
              },
            },
            () => handler(envelope),
          )
        : handler(envelope);
    return requestId ? requestContext.run({ requestId }, run) : run();
  };
}
