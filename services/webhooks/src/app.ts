import type { Express } from 'express';
import { writeEvent } from '@firewatch/events';
import type { ResourceObject } from '@firewatch/jsonapi';
import { createKitApp, type KitAppShell } from '@firewatch/kit-service';
import { createDeliveriesRepository } from './data/deliveries.repository.js';
import { createDeliveriesService } from './domain/deliveries/deliveries.service.js';
import { endpointEventData } from './domain/endpoints/endpoint-events.js';
import type { SecretBox } from '@firewatch/secret-box';
import { registry } from './domain/registry.js';
import type { WebhooksResourceDeps } from './domain/webhooks.deps.js';
import { webhooksEndpoints } from './domain/endpoints/webhooks-endpoints.resource.js';
import { createDeliveriesRouter } from './http/deliveries.routes.js';
import { createEventTypesRouter } from './http/event-types.routes.js';
import { webhooksOpenApiDocument } from './http/webhooks.openapi.js';

/** What the webhooks app is given: the kit shell and the endpoints' settings. */
export interface WebhooksDeps extends KitAppShell {
  secretBox: SecretBox;
  allowHttp: boolean;
  /** Endpoints one team may have (WEBHOOK_MAX_ENDPOINTS_PER_TEAM); default 50. */
  maxEndpointsPerTeam?: number;
}

export function createWebhooksApp(deps: WebhooksDeps): Express {
  const endpointsDeps: WebhooksResourceDeps = {
    allowHttp: deps.allowHttp,
    secretBox: deps.secretBox,
    maxEndpointsPerTeam: deps.maxEndpointsPerTeam ?? 50,
  };
  return createKitApp(deps, {
    registry,
    deps: endpointsDeps,
    writeEvent: (tx, event) => writeEvent(tx, { ...event, data: endpointEventData(event.data as ResourceObject) }),
    // Event types and deliveries first: their paths are more specific than /endpoints/:id.
    routersBefore: (modules) => {
      const endpoints = modules.find((m) => m.definition.type === webhooksEndpoints.type)!;
      const deliveries = createDeliveriesService({ repository: createDeliveriesRepository(deps.knex), endpoints: endpoints.service });
      return [createEventTypesRouter(), createDeliveriesRouter(deliveries)];
    },
    openapi: webhooksOpenApiDocument(registry),
  });
}
