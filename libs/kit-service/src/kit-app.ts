import type { Express, Router } from 'express';
import type { Knex } from 'knex';
import type { PrincipalVerifier } from '@firewatch/auth';
import { writeEvent } from '@firewatch/events';
import { createServiceApp, type ReadinessChecks } from '@firewatch/http';
import type { Logger } from '@firewatch/logger';
import type { Metrics } from '@firewatch/metrics';
import {
  createResourceModules,
  mountResources,
  type EventWriter,
  type ResourceModule,
  type ResourceRegistry,
} from '@firewatch/resource-kit';

/**
 * What the process (or a test) hands every kit service's app: its pool, logger,
 * principal verifier, readiness checks and body limit. A service's app inputs extend it
 * with what that service alone needs (a secret box, a Liquid pool).
 */
export interface KitAppShell {
  knex: Knex;
  logger: Logger;
  /** Verifies the gateway-signed principal, for this service's audience. */
  principals: PrincipalVerifier;
  readiness?: ReadinessChecks;
  bodyLimit?: string;
  /** The process's metrics, served at `/metrics`; tests may leave them out. */
  metrics?: Metrics;
}

/** The service's own part of its app: its registry, its one dependencies object, its document. */
export interface KitAppParts<D> {
  registry: ResourceRegistry<D>;
  /** The service's one dependencies object, handed to every hook, action, loader and source. */
  deps: NoInfer<D>;
  /** Served at `/openapi.json`: the service's `<service>.openapi.ts` document. */
  openapi: unknown;
  /** How the service's events reach its outbox; default `writeEvent` (`@firewatch/events`). */
  writeEvent?: EventWriter;
  /**
   * Hand-written routers, mounted before the kit's (their paths are more specific than
   * `{id}` ones). They receive the wired modules, so a router can use a resource's service.
   */
  routersBefore?: (modules: readonly ResourceModule[]) => Router[];
}

/**
 * The express app of a kit service: every declaration of its registry wired to the
 * database and mounted (`mountResources`), behind the shared service shell
 * (`createServiceApp`: health, principal check, media types, Idempotency-Key kept in
 * `shell.knex`, one error mapper).
 */
export function createKitApp<D>(shell: KitAppShell, parts: KitAppParts<D>): Express {
  const modules = createResourceModules(parts.registry, { knex: shell.knex, writeEvent: parts.writeEvent ?? writeEvent, deps: parts.deps });
  return createServiceApp({
    logger: shell.logger,
    principals: shell.principals,
    routers: [...(parts.routersBefore?.(modules) ?? []), mountResources(modules)],
    readiness: shell.readiness,
    bodyLimit: shell.bodyLimit,
    openapi: parts.openapi,
    idempotency: { knex: shell.knex },
    metrics: shell.metrics,
  });
}
