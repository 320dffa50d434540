import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listOperations } from '@firewatch/openapi';
import { openApiDocument } from './openapi-document.js';

const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/openapi.json');

type Schema = { properties?: Record<string, Schema>; required?: string[]; allOf?: Schema[] };

describe('docs/openapi.json', () => {
  const generated = openApiDocument();
  const schemas = generated.components.schemas as Record<string, Schema>;
  const operations = listOperations(generated);

  it('describes the kit-built and the hand-written routes of every service', () => {
    expect(Object.keys(generated.paths)).toEqual(
      expect.arrayContaining([
        '/v1/environments',
        '/v1/environments/{id}',
        '/v1/webhooks/endpoints',
        '/v1/webhooks/endpoints/{id}',
        '/v1/api_keys',
        '/v1/api_keys/{id}',
        '/v1/api_keys/{id}/rotate',
        '/v1/oauth_applications',
        '/v1/oauth_applications/{id}',
        '/v1/users/me',
        '/v1/teams',
        '/v1/teams/{id}',
        '/v1/teams/bulk_upsert',
        '/v1/teams/bulk_delete',
        '/v1/webhooks/event_types',
        '/v1/webhooks/endpoints/{endpoint_id}/deliveries',
        '/v1/webhooks/deliveries/{id}',
        '/v1/webhooks/deliveries/{id}/attempts',
        '/v1/webhooks/deliveries/{id}/deliver',
      ]),
    );
  });

  it('gives the hand-written resources real attribute schemas', () => {
    for (const type of [
      'api_keys',
      'oauth_applications',
      'users',
      'webhooks_deliveries',
      'webhooks_delivery_attempts',
      'webhooks_event_types',
    ]) {
      const attributes = schemas[`${type}_resource`]?.properties?.attributes?.properties ?? {};
      expect([type, Object.keys(attributes).length]).not.toEqual([type, 0]);
      expect([
        type,
        Object.entries(attributes)
          .filter(([, s]) => Object.keys(s).length === 0)
          .map(([a]) => a),
      ]).toEqual([type, []]);
    }
    expect(schemas.api_keys_resource.properties!.attributes.required).toEqual(
      expect.arrayContaining(['name', 'kind', 'capabilities', 'expires_at']),
    );
  });

  it('needs the bearer credential on every operation and documents its errors as JSON:API errors documents', () => {
    expect(generated.components.securitySchemes).toEqual({ bearer_auth: expect.objectContaining({ type: 'http', scheme: 'bearer' }) });
    for (const { method, path, operation } of operations) {
      const responses = operation.responses as Record<string, { content?: Record<string, { schema: unknown }> }>;
      expect([method, path, operation.security]).toEqual([method, path, [{ bearer_auth: [] }]]);
      expect(responses['401'].content!['application/vnd.api+json'].schema).toEqual({ $ref: '#/components/schemas/errors_list' });
      expect(responses['429'].content!['application/json'].schema).toEqual({ $ref: '#/components/schemas/rate_limited' });
      expect(Object.keys(responses)).toEqual(expect.arrayContaining(['503', '504']));
    }
  });

  it('is up to date with the code (regenerate with UPDATE_OPENAPI=1 pnpm test:unit tests/openapi)', () => {
    const text = JSON.stringify(generated, null, 2) + '\n';
    if (process.env.UPDATE_OPENAPI === '1') fs.writeFileSync(file, text);
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
  });
});
