import { createSecretBox } from '@firewatch/secret-box';
import { startServiceHarness, type ServiceHarness } from '@firewatch/service-testing';
import { migrations } from '../../migrations/index.js';
import { createIncidentConfigApp } from '../../src/app.js';

export { type CallOptions } from '@firewatch/service-testing';
export const MEDIA = 'application/vnd.api+json';

/** The box the harness's service seals secrets with, for tests that open what it stored. */
export const testSecretBox = createSecretBox({ keys: [], devKeySeed: 'incident-config-test-seed', purpose: 'incident-config/secrets/v1' });

export type IncidentConfigHarness = ServiceHarness;

/**
 * incident-config over a fresh migrated database, called as the gateway would (a signed
 * principal). With `eventPattern`, the outbox relay runs and events matching it are collected.
 */
export function startIncidentConfig(options: { eventPattern?: string } = {}): Promise<IncidentConfigHarness> {
  return startServiceHarness({
    audience: 'incident-config',
    migrations,
    eventPattern: options.eventPattern,
    createApp: (deps) => createIncidentConfigApp({ ...deps, secretBox: testSecretBox }),
  });
}
