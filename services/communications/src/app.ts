import type { Knex } from 'knex';
import type { Express } from 'express';
import type { PrincipalVerifier } from '@firewatch/auth';
import { writeEvent } from '@firewatch/events';
import type { Logger } from '@firewatch/logger';
import { createServiceApp } from '@firewatch/http';
import { createResourceModules, mountResources } from '@firewatch/resource-kit';
import { createCommunicationsRepository } from './data/communications.repository.js';
import type { CommunicationsDeps } from './domain/communications.deps.js';
import { createLiquidPool, type LiquidPool } from './domain/liquid/render-pool.js';
import { registry } from './domain/resources/index.js';
import { communicationsOpenApiDocument } from './http/communications.openapi.js';

export interface CommunicationsAppDeps {
  knex: Knex;
  logger: Logger;
  principals: PrincipalVerifier;
  readiness?: Record<string, () => Promise<unknown>>;
  bodyLimit?: string;
  /** The Liquid workers, whose owner closes them; by default a pool of its own (workers start at first use). */
  liquid?: LiquidPool;
}

/** The communications service: types, stages and templates (with previews), all kit declarations. */
export function createCommunicationsApp(deps: CommunicationsAppDeps): Express {
  const resourceDeps: CommunicationsDeps = { communications: createCommunicationsRepository(deps.knex), liquid: deps.liquid ?? createLiquidPool() };
  const modules = createResourceModules(registry, { knex: deps.knex, writeEvent, deps: resourceDeps });
  return createServiceApp({
    logger: deps.logger,
    principals: deps.principals,
    routers: [mountResources(modules)],
    readiness: deps.readiness,
    bodyLimit: deps.bodyLimit,
    openapi: communicationsOpenApiDocument(),
  });
}
