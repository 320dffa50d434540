import type { Express } from 'express';
import { createKitApp, type KitAppShell } from '@firewatch/kit-service';
import { alertIntakeOn } from './alert-intake.wiring.js';
import { createSourceStore } from './data/alerts-in.repository.js';
import { createRecordsRepository } from './data/records.repository.js';
import { createAlertIngestion } from './domain/alerts-in/alert-ingestion.js';
import { registry } from './domain/registry.js';
import type { OnCallResourceDeps, ShiftReadBounds } from './domain/on-call.deps.js';
import { SHIFT_READ_BOUNDS } from './domain/schedules/shifts.source.js';
import { createAlertIngestRouter } from './http/alert-ingest.routes.js';
import { createAlertsCreateRouter } from './http/alerts-create.routes.js';
import { onCallOpenApiDocument } from './http/on-call.openapi.js';

/** What the on-call app is given: the kit shell and, in tests, lower shift read bounds. */
export interface OnCallDeps extends KitAppShell {
  /** How much GET /v1/shifts reads at most; default SHIFT_READ_BOUNDS (tests lower it). */
  shiftReads?: ShiftReadBounds;
  /** The largest payload an alert source may post; default 512 KiB (INGEST_BODY_LIMIT_BYTES). */
  ingestBodyLimitBytes?: number;
}

export function createOnCallApp(deps: OnCallDeps): Express {
  const resourceDeps: OnCallResourceDeps = {
    ...createRecordsRepository(deps.knex, deps.logger),
    shiftReads: deps.shiftReads ?? SHIFT_READ_BOUNDS,
  };
  const intake = alertIntakeOn(deps.knex);
  const ingestion = createAlertIngestion({ sources: createSourceStore(deps.knex), intake });
  return createKitApp(deps, {
    registry,
    deps: resourceDeps,
    openapi: onCallOpenApiDocument(),
    routersBefore: (modules) => [
      createAlertIngestRouter({ principals: deps.principals, ingestion, bodyLimitBytes: deps.ingestBodyLimitBytes ?? 512 * 1024 }),
      createAlertsCreateRouter({
        intake,
        alerts: modules.find((m) => m.definition.type === 'alerts')!,
        urgencies: modules.find((m) => m.definition.type === 'alert_urgencies')!,
      }),
    ],
  });
}
