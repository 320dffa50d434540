import { assembleDocument, type OpenApiDocument } from '@firewatch/openapi';
import { registryOpenApi, type AnyResourceRegistry } from '@firewatch/resource-kit';
import { deliveriesOpenApi } from './deliveries.openapi.js';
import { eventTypesOpenApi } from './event-types.openapi.js';

/** The webhooks service's API: the endpoints resource (kit-built) and the hand-written deliveries and event types. */
export function webhooksOpenApiDocument(registry: AnyResourceRegistry): OpenApiDocument {
  return assembleDocument({ title: 'Firewatch webhooks', version: '1.0.0' }, [
    eventTypesOpenApi,
    ...registryOpenApi(registry),
    deliveriesOpenApi,
  ]);
}
