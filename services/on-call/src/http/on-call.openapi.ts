import { assembleDocument, type OpenApiDocument } from '@firewatch/openapi';
import { registryOpenApi } from '@firewatch/resource-kit';
import { registry } from '../domain/registry.js';

/** The on-call service's API: every kit-built resource it serves. */
export function onCallOpenApiDocument(): OpenApiDocument {
  return assembleDocument({ title: 'Firewatch on-call', version: '1.0.0' }, registryOpenApi(registry));
}
