import { assembleDocument, type OpenApiDocument } from '@firewatch/openapi';
import { registryOpenApi } from '@firewatch/resource-kit';
import { registry } from '../domain/registry.js';

/** The communications service's API: every kit-built resource it serves. */
export function communicationsOpenApiDocument(): OpenApiDocument {
  return assembleDocument({ title: 'Firewatch communications', version: '1.0.0' }, registryOpenApi(registry));
}
