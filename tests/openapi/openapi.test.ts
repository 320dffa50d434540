import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from './openapi-document.js';

const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/openapi.json');

describe('docs/openapi.json', () => {
  const generated = openApiDocument() as { paths: Record<string, Record<string, unknown>> };

  it('describes the kit-built resources', () => {
    expect(Object.keys(generated.paths)).toEqual(expect.arrayContaining([
      '/v1/environments', '/v1/environments/{id}', '/v1/webhooks/endpoints', '/v1/webhooks/endpoints/{id}',
    ]));
    expect(Object.keys(generated.paths['/v1/environments/{id}'])).toEqual(['get', 'put', 'patch', 'delete']);
  });

  it('is up to date with the declarations (regenerate with UPDATE_OPENAPI=1 pnpm test:unit tests/openapi)', () => {
    const text = JSON.stringify(generated, null, 2) + '\n';
    if (process.env.UPDATE_OPENAPI === '1') fs.writeFileSync(file, text);
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
  });
});
