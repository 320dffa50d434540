import type { Knex } from 'knex';
import type { Express } from 'express';
import type { PrincipalVerifier } from '@firewatch/auth';
import { writeEvent } from '@firewatch/events';
import type { Logger } from '@firewatch/logger';
import { createServiceApp } from '@firewatch/http';
import { createResourceModules, mountResources } from '@firewatch/resource-kit';
import { createRecordsRepository } from './data/records.repository.js';
import { registry } from './domain/registry.js';
import type { ShiftReadBounds } from './domain/on-call.deps.js';
import { SHIFT_READ_BOUNDS } from './domain/schedules/shifts.source.js';
import { onCallOpenApiDocument } from './http/on-call.openapi.js';

export interface OnCallDeps {
  knex: Knex;
  logger: Logger;
  principals: PrincipalVerifier;
  readiness?: Record<string, () => Promise<unknown>>;
  bodyLimit?: string;
  /** How much GET /v1/shifts reads at most; default SHIFT_READ_BOUNDS (tests lower it). */
  shiftReads?: ShiftReadBounds;
}

export function createOnCallApp(deps: OnCallDeps): Express {
  const resourceDeps = { ...createRecordsRepository(deps.knex, deps.logger), shiftReads: deps.shiftReads ?? SHIFT_READ_BOUNDS };
  const modules = createResourceModules(registry, { knex: deps.knex, writeEvent, deps: resourceDeps });
  return createServiceApp({
    logger: deps.logger,
    principals: deps.principals,
    routers: [mountResources(modules)],
    readiness: deps.readiness,
    bodyLimit: deps.bodyLimit,
    openapi: onCallOpenApiDocument(),
  });
}
