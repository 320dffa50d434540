import { randomUUID } from 'node:crypto';
import { type ConformanceOperation, fillPath } from '../conformance-operation.js';

const environment = (name: string) => ({ data: { type: 'environments', attributes: { name } } });
const IDEMPOTENCY = 'docs/api-contract.md §2 (Idempotency-Key)';

/**
 * Idempotency-Key (docs/api-contract.md §2), which the reference lacks: each row first
 * makes the call with a fresh key, then the row's own call repeats the key. A replay
 * must answer what the first call answered, in the reference's shape.
 */
export const idempotencyOperations: ConformanceOperation[] = [
  {
    method: 'POST',
    path: '/v1/environments',
    variant: 'Idempotency-Key replay of a create',
    request: async (ctx) => {
      const body = environment(`Idempotent ${randomUUID().slice(0, 8)}`);
      const headers = { 'idempotency-key': randomUUID() };
      await ctx.call('POST', '/v1/environments', { body, headers });
      return { body, headers };
    },
    status: 201,
    schema: { reference: 'createEnvironment', status: 201 },
  },
  {
    method: 'DELETE',
    path: '/v1/environments/{id}',
    variant: 'Idempotency-Key replay of a delete',
    request: async (ctx) => {
      const params = { id: await ctx.create.environment() };
      const headers = { 'idempotency-key': randomUUID() };
      await ctx.call('DELETE', fillPath('/v1/environments/{id}', params), { headers });
      return { params, headers };
    },
    status: 200,
    schema: { reference: 'deleteEnvironment', status: 200 },
  },
  {
    method: 'POST',
    path: '/v1/environments',
    variant: 'Idempotency-Key reused with another body',
    request: async (ctx) => {
      const headers = { 'idempotency-key': randomUUID() };
      await ctx.call('POST', '/v1/environments', { body: environment(`Idempotent ${randomUUID().slice(0, 8)}`), headers });
      return { body: environment(`Idempotent ${randomUUID().slice(0, 8)}`), headers };
    },
    status: 422,
    schema: { spec: 'errors', cite: IDEMPOTENCY },
  },
];
