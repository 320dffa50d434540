import { validate, compileErrors } from '@readme/openapi-parser';
import { openApiDocument, serviceDocuments } from './openapi-document.js';

// validate() dereferences in place: each call gets its own copy.
async function problems(document: object): Promise<string | undefined> {
  const result = await validate(structuredClone(document) as Parameters<typeof validate>[0]);
  return result.valid ? undefined : compileErrors(result);
}

describe('OpenAPI 3.1 validity (@readme/openapi-parser)', () => {
  it('passes for the whole public API: the 3.1 schema, unique operationIds, declared path parameters, resolvable $refs', async () => {
    const document = openApiDocument();
    expect(document.openapi).toBe('3.1.0');
    expect(await problems(document)).toBeUndefined();
  });

  it.each(Object.entries(serviceDocuments()))("passes for the %s service's own document", async (_name, document) => {
    expect(await problems(document!)).toBeUndefined();
  });

  it('fails for a broken document, so the checks above can fail', async () => {
    const broken = structuredClone(openApiDocument());
    (broken.paths['/v1/api_keys/{id}'].get as { parameters: unknown[] }).parameters = [];
    expect(await problems(broken)).toMatch(/id/);
  });
});
