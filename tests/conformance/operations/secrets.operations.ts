import { randomUUID } from 'node:crypto';
import type { ConformanceContext } from '../support/conformance-system.js';
import { type ConformanceOperation, unknownIdRows } from '../conformance-operation.js';

const secret = (attributes: Record<string, unknown>) => ({ data: { type: 'secrets', attributes } });
const name = () => `secret_${randomUUID().slice(0, 8)}`;

/** A fresh secret; its id. */
async function freshSecret(ctx: ConformanceContext): Promise<string> {
  const res = await ctx.call('POST', '/v1/secrets', { body: secret({ name: name(), secret: 'conformance-value' }) });
  if (res.status !== 201) throw new Error(`fixture: secret answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

/** A team-wide observer key, which may read secrets but not write them. */
async function observerToken(ctx: ConformanceContext): Promise<string> {
  const res = await ctx.call('POST', '/v1/api_keys', {
    body: { data: { type: 'api_keys', attributes: { name: `observer ${name()}`, kind: 'global', role: 'observer' } } },
  });
  if (res.status !== 201) throw new Error(`fixture: api key answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.attributes.token as string;
}

/**
 * Secrets (docs/decisions.md, Resources): the value is answered redacted everywhere; where it
 * lives in a vault only to those who may write it (docs/security.md).
 */
export const secretOperations: ConformanceOperation[] = [
  {
    method: 'POST',
    path: '/v1/secrets',
    variant: 'an external vault, every attribute set',
    request: () => ({
      body: secret({
        name: name(),
        secret: 'token',
        kind: 'hashicorp_vault',
        external_vault_mount: 'kv',
        external_vault_path: 'prod/db',
        external_vault_version: '2',
        owner_group_ids: [],
      }),
    }),
    status: 201,
    schema: { reference: 'createSecret', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/secrets',
    variant: 'only the required name and secret',
    request: () => ({ body: secret({ name: name(), secret: 'token' }) }),
    status: 201,
    schema: { reference: 'createSecret', status: 201 },
  },
  {
    method: 'POST',
    path: '/v1/secrets',
    variant: 'secret missing',
    request: () => ({ body: secret({ name: name() }) }),
    status: 422,
    schema: { reference: 'createSecret', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/secrets',
    variant: 'no credential',
    request: () => ({ body: secret({ name: name(), secret: 'x' }), token: null }),
    status: 401,
    schema: { reference: 'createSecret', status: 401 },
  },
  { method: 'GET', path: '/v1/secrets', status: 200, schema: { reference: 'listSecrets', status: 200 } },
  {
    method: 'GET',
    path: '/v1/secrets',
    variant: 'sorted, a page of one',
    request: () => ({ query: 'sort=-created_at&page[size]=1' }),
    status: 200,
    schema: { reference: 'listSecrets', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/secrets/{id}',
    request: async (ctx) => ({ params: { id: await freshSecret(ctx) } }),
    status: 200,
    schema: { reference: 'getSecret', status: 200 },
  },
  {
    method: 'GET',
    path: '/v1/secrets/{id}',
    variant: 'an observer, who may not write it: no vault fields',
    request: async (ctx) => {
      const res = await ctx.call('POST', '/v1/secrets', {
        body: secret({
          name: name(),
          secret: 'token',
          kind: 'hashicorp_vault',
          external_vault_mount: 'kv',
          external_vault_path: 'prod/db',
          external_vault_version: 2,
        }),
      });
      if (res.status !== 201) throw new Error(`fixture: secret answered ${res.status}: ${JSON.stringify(res.body)}`);
      return { params: { id: res.body.data.id }, token: await observerToken(ctx) };
    },
    status: 200,
    schema: { reference: 'getSecret', status: 200 },
  },
  {
    method: 'PUT',
    path: '/v1/secrets/{id}',
    request: async (ctx) => ({
      params: { id: await freshSecret(ctx) },
      body: secret({ name: name(), secret: 'rotated', external_vault_version: 1 }),
    }),
    status: 200,
    schema: { reference: 'updateSecret', status: 200 },
  },
  {
    method: 'DELETE',
    path: '/v1/secrets/{id}',
    request: async (ctx) => ({ params: { id: await freshSecret(ctx) } }),
    status: 200,
    schema: { reference: 'deleteSecret', status: 200 },
  },
  ...unknownIdRows('/v1/secrets/{id}', [
    ['GET', 'getSecret'],
    ['PUT', 'updateSecret', secret({ name: 'x' })],
    ['DELETE', 'deleteSecret'],
  ]),
];
