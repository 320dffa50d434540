import type { OpenApiDocument } from '@firewatch/openapi';
import { composeApiDocument } from '../../gateway/src/domain/api-document.js';
import type { UpstreamName } from '../../gateway/src/domain/routes.js';
import { authOpenApiDocument } from '../../services/auth/src/http/auth.openapi.js';
import { communicationsOpenApiDocument } from '../../services/communications/src/http/communications.openapi.js';
import { incidentConfigOpenApiDocument } from '../../services/incident-config/src/http/incident-config.openapi.js';
import { onCallOpenApiDocument } from '../../services/on-call/src/http/on-call.openapi.js';
import { registry as webhooksRegistry } from '../../services/webhooks/src/domain/registry.js';
import { webhooksOpenApiDocument } from '../../services/webhooks/src/http/webhooks.openapi.js';

/** Each deployed service's own document, as it serves it at `/openapi.json`. */
export function serviceDocuments(): Partial<Record<UpstreamName, OpenApiDocument>> {
  return {
    auth: authOpenApiDocument(),
    'incident-config': incidentConfigOpenApiDocument(),
    communications: communicationsOpenApiDocument(),
    'on-call': onCallOpenApiDocument(),
    webhooks: webhooksOpenApiDocument(webhooksRegistry),
  };
}

/**
 * The public API's OpenAPI 3.1 document, composed by the gateway's own code from the
 * services' documents, exactly as `GET /openapi.json` serves it with every service up.
 */
export function openApiDocument(): OpenApiDocument {
  const { document, conflicts } = composeApiDocument({ documents: serviceDocuments() });
  if (conflicts.length) throw new Error(`the services' documents conflict:\n${conflicts.join('\n')}`);
  return document;
}
