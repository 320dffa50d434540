import type { Express } from 'express';
import { createKitApp, type KitAppShell } from '@firewatch/kit-service';
import { createCommunicationsRepository } from './data/communications.repository.js';
import type { CommunicationsDeps } from './domain/communications.deps.js';
import { createLiquidPool, type LiquidPool } from './domain/liquid/render-pool.js';
import { registry } from './domain/registry.js';
import { communicationsOpenApiDocument } from './http/communications.openapi.js';

/** What the communications app is given: the kit shell, and the Liquid workers when the caller owns them. */
export interface CommunicationsAppDeps extends KitAppShell {
  /** The Liquid workers, whose owner closes them; by default a pool of its own (workers start at first use). */
  liquid?: LiquidPool;
}

/** The communications service: types, stages and templates (with previews), all kit declarations. */
export function createCommunicationsApp(deps: CommunicationsAppDeps): Express {
  const resourceDeps: CommunicationsDeps = {
    communications: createCommunicationsRepository(deps.knex),
    liquid: deps.liquid ?? createLiquidPool(),
  };
  return createKitApp(deps, { registry, deps: resourceDeps, openapi: communicationsOpenApiDocument() });
}
