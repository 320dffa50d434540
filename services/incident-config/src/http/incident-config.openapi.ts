import { assembleDocument, type OpenApiDocument } from '@firewatch/openapi';
import { registryOpenApi } from '@firewatch/resource-kit';
import { registry } from '../domain/registry.js';

/** The incident-config service's API: every kit-built resource it serves. */
export function incidentConfigOpenApiDocument(): OpenApiDocument {
  return assembleDocument({ title: 'Firewatch incident-config', version: '1.0.0' }, registryOpenApi(registry));
}
