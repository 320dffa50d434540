import { startServiceHarness, type CallOptions, type HarnessAnswer, type ServiceHarness } from '@firewatch/service-testing';
import { migrations } from '../../migrations/index.js';
import { createOnCallApp } from '../../src/app.js';
import type { ShiftReadBounds } from '../../src/domain/on-call.deps.js';
import type { PagingPorts } from '../../src/paging.wiring.js';

export { type CallOptions } from '@firewatch/service-testing';
export const MEDIA = 'application/vnd.api+json';

export interface OnCallHarness extends ServiceHarness {
  /** A JSON:API create of `type` at `/v1/<type>`. */
  create(type: string, attributes: Record<string, unknown>, options?: CallOptions): Promise<HarnessAnswer>;
}

/**
 * on-call over a fresh migrated database, called as the gateway would (a signed
 * principal). With `eventPattern`, the outbox relay runs and events matching it are
 * collected; `shiftReads` lowers what GET /v1/shifts may read, so a test meets the bound
 * without thousands of rows; `paging`, the routing and escalation plans alerts page through.
 */
export async function startOnCall(
  options: { eventPattern?: string; shiftReads?: ShiftReadBounds; paging?: PagingPorts } = {},
): Promise<OnCallHarness> {
  const harness = await startServiceHarness({
    audience: 'on-call',
    migrations,
    eventPattern: options.eventPattern,
    createApp: (deps) => createOnCallApp({ ...deps, shiftReads: options.shiftReads, paging: options.paging }),
  });
  return {
    ...harness,
    create: (type, attributes, opts = {}) => harness.call('POST', `/v1/${type}`, { ...opts, body: { data: { type, attributes } } }),
  };
}
