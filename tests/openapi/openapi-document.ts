import { buildOpenApiDocument } from '@firewatch/resource-kit';
import { resources as incidentConfig } from '../../services/incident-config/src/domain/resources/index.js';
import { createSecretBox } from '../../services/webhooks/src/domain/secret-box.js';
import { createEndpointsResource } from '../../services/webhooks/src/domain/webhooks-endpoints.resource.js';

/**
 * The public API's OpenAPI 3.1 document, from the resource declarations of every
 * kit-built service. The declarations do not depend on runtime secrets, so placeholder
 * ones serve here.
 */
export function openApiDocument(): Record<string, unknown> {
  const endpoints = createEndpointsResource({
    secretBox: createSecretBox({ keys: [], devKeySeed: 'openapi-document-placeholder-secret' }),
    allowHttp: false,
  });
  return buildOpenApiDocument({ title: 'Firewatch API', version: '1.0.0' }, [...incidentConfig, endpoints]);
}
