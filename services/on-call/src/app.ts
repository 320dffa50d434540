import type { Express } from 'express';
import { createKitApp, type KitAppShell } from '@firewatch/kit-service';
import { createRecordsRepository } from './data/records.repository.js';
import { registry } from './domain/registry.js';
import type { OnCallResourceDeps, ShiftReadBounds } from './domain/on-call.deps.js';
import { SHIFT_READ_BOUNDS } from './domain/schedules/shifts.source.js';
import { onCallOpenApiDocument } from './http/on-call.openapi.js';

/** What the on-call app is given: the kit shell and, in tests, lower shift read bounds. */
export interface OnCallDeps extends KitAppShell {
  /** How much GET /v1/shifts reads at most; default SHIFT_READ_BOUNDS (tests lower it). */
  shiftReads?: ShiftReadBounds;
}

export function createOnCallApp(deps: OnCallDeps): Express {
  const resourceDeps: OnCallResourceDeps = {
    ...createRecordsRepository(deps.knex, deps.logger),
    shiftReads: deps.shiftReads ?? SHIFT_READ_BOUNDS,
  };
  return createKitApp(deps, { registry, deps: resourceDeps, openapi: onCallOpenApiDocument() });
}
