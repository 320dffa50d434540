import type { Knex } from 'knex';
import type { Express } from 'express';
import type { PrincipalVerifier } from '@firewatch/auth';
import { writeEvent } from '@firewatch/events';
import type { ResourceObject } from '@firewatch/jsonapi';
import type { Logger } from '@firewatch/logger';
import { createServiceApp } from '@firewatch/http';
import { createResourceModules } from '@firewatch/resource-kit';
import { createDeliveriesRepository } from './data/deliveries.repository.js';
import { createDeliveriesService } from './domain/deliveries.service.js';
import { endpointEventData } from './domain/endpoint-events.js';
import type { SecretBox } from '@firewatch/secret-box';
import { registry } from './domain/registry.js';
import { createDeliveriesRouter } from './http/deliveries.routes.js';
import { createEventTypesRouter } from './http/event-types.routes.js';
import { webhooksOpenApiDocument } from './http/webhooks.openapi.js';

export interface WebhooksDeps {
  knex: Knex;
  logger: Logger;
  principals: PrincipalVerifier;
  secretBox: SecretBox;
  allowHttp: boolean;
  /** Endpoints one team may have (WEBHOOK_MAX_ENDPOINTS_PER_TEAM); default 50. */
  maxEndpointsPerTeam?: number;
  readiness?: Record<string, () => Promise<unknown>>;
  bodyLimit?: string;
}

export function createWebhooksApp(deps: WebhooksDeps): Express {
  const [module] = createResourceModules(registry, {
    knex: deps.knex,
    writeEvent: (tx, event) => writeEvent(tx, { ...event, data: endpointEventData(event.data as ResourceObject) }),
    deps: { allowHttp: deps.allowHttp, secretBox: deps.secretBox, maxEndpointsPerTeam: deps.maxEndpointsPerTeam ?? 50 },
  });
  const deliveries = createDeliveriesService({ repository: createDeliveriesRepository(deps.knex), endpoints: module.service });
  return createServiceApp({
    logger: deps.logger,
    principals: deps.principals,
    // Event types and deliveries first: their paths are more specific than /endpoints/:id.
    routers: [createEventTypesRouter(), createDeliveriesRouter(deliveries), module.router],
    readiness: deps.readiness,
    bodyLimit: deps.bodyLimit,
    openapi: webhooksOpenApiDocument(registry),
  });
}
