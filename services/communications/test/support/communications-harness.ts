import { startServiceHarness, type ServiceHarness } from '@firewatch/service-testing';
import { migrations } from '../../migrations/index.js';
import { createCommunicationsApp } from '../../src/app.js';
import { createLiquidPool, type LiquidPool } from '../../src/domain/liquid/render-pool.js';

export { type CallOptions } from '@firewatch/service-testing';
export const MEDIA = 'application/vnd.api+json';

export interface CommunicationsHarness extends ServiceHarness {
  liquid: LiquidPool;
}

/**
 * communications over a fresh migrated database, called as the gateway would (a signed
 * principal), with its Liquid worker pool. With `eventPattern`, events are collected.
 */
export async function startCommunications(options: { eventPattern?: string } = {}): Promise<CommunicationsHarness> {
  const liquid = createLiquidPool();
  const harness = await startServiceHarness({
    audience: 'communications',
    migrations,
    eventPattern: options.eventPattern,
    createApp: (deps) => createCommunicationsApp({ ...deps, liquid }),
    onClose: () => liquid.close(),
  });
  return { ...harness, liquid };
}
