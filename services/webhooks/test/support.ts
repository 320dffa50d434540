// Shared set-up of the webhooks component suites (not a test file).
import type { Knex } from 'knex';
import { createPrincipalVerifier, PRINCIPAL_HEADER } from '@firewatch/auth';
import { migrate } from '@firewatch/db';
import { createLogger } from '@firewatch/logger';
import {
  createTestDatabase,
  listen,
  signAsGateway,
  TEST_PRINCIPAL_KEYS,
  testPrincipal,
  type Listening,
  type TestDatabase,
} from '@firewatch/testing';
import { migrations } from '../migrations/index.js';
import { createWebhooksApp } from '../src/app.js';
import { createSecretBox } from '@firewatch/secret-box';

export const MEDIA = 'application/vnd.api+json';
export const secretBox = createSecretBox({ keys: [], devKeySeed: 't'.repeat(32) });

export interface Harness {
  db: TestDatabase;
  server: Listening;
  call(
    method: string,
    path: string,
    options?: { body?: unknown; principal?: Record<string, unknown> },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

export async function startWebhooks(allowHttp = false, options: { maxEndpointsPerTeam?: number } = {}): Promise<Harness> {
  const db = await createTestDatabase('fw_wh_test');
  await migrate(db.knex, migrations);
  const logger = createLogger({ service: 'test', level: 'silent' });
  const server = await listen(
    createWebhooksApp({
      knex: db.knex as Knex,
      logger,
      secretBox,
      allowHttp,
      ...options,
      principals: createPrincipalVerifier({ publicKeys: TEST_PRINCIPAL_KEYS.publicKeys, audience: 'webhooks' }),
    }),
  );
  return {
    db,
    server,
    async call(method, path, options = {}) {
      const headers: Record<string, string> = {
        [PRINCIPAL_HEADER]: await signAsGateway(testPrincipal(options.principal ?? {}), 'webhooks', method, path),
      };
      if (options.body !== undefined) headers['content-type'] = MEDIA;
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
    },
    async close() {
      await server.close();
      await db.drop();
    },
  };
}

export const endpoint = (attributes: Record<string, unknown>) => ({ data: { type: 'webhooks_endpoints', attributes } });
