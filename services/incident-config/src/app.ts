import type { Knex } from 'knex';
import type { Express } from 'express';
import type { PrincipalVerifier } from '@firewatch/auth';
import { writeEvent } from '@firewatch/events';
import type { Logger } from '@firewatch/logger';
import { createServiceApp } from '@firewatch/http';
import { buildOpenApiDocument, createResourceModule } from '@firewatch/resource-kit';
import { resources } from './domain/resources/index.js';

export interface IncidentConfigDeps {
  knex: Knex;
  logger: Logger;
  principals: PrincipalVerifier;
  readiness?: Record<string, () => Promise<unknown>>;
  bodyLimit?: string;
}

export function createIncidentConfigApp(deps: IncidentConfigDeps): Express {
  const modules = resources.map((definition) =>
    createResourceModule(definition, { knex: deps.knex, writeEvent: (tx, event) => writeEvent(tx as Knex.Transaction, event) }),
  );
  return createServiceApp({
    logger: deps.logger,
    principals: deps.principals,
    routers: modules.map((m) => m.router),
    readiness: deps.readiness,
    bodyLimit: deps.bodyLimit,
    openapi: buildOpenApiDocument({ title: 'Firewatch incident-config', version: '1.0.0' }, resources),
  });
}
