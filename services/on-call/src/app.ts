import type { Express } from 'express';
import { createKitApp, type KitAppShell } from '@firewatch/kit-service';
import { alertRecorder } from '@firewatch/metrics';
import { alertIntakeOn } from './alert-intake.wiring.js';
import { createSourceStore } from './data/alerts-in.repository.js';
import { createHeartbeatPingRepository } from './data/heartbeats.repository.js';
import { createLinkUsersRepository } from './data/alert-action-links.repository.js';
import { createEmailVerificationRepository } from './data/email-verification.repository.js';
import { createRecordsRepository } from './data/records.repository.js';
import { createAlertIngestion } from './domain/alerts-in/alert-ingestion.js';
import { createAlertLinkActions } from './domain/notifications/alert-link-actions.js';
import { createEmailVerification } from './domain/notifications/email-verification.js';
import { createHeartbeatPings } from './domain/heartbeats/heartbeat-pings.js';
import { registry } from './domain/registry.js';
import type { OnCallResourceDeps, ShiftReadBounds } from './domain/on-call.deps.js';
import { SHIFT_READ_BOUNDS } from './domain/schedules/shifts.source.js';
import { createAlertActionsRouter } from './http/alert-actions.routes.js';
import { createAlertIngestRouter } from './http/alert-ingest.routes.js';
import { createAlertsCreateRouter } from './http/alerts-create.routes.js';
import { createEmailVerificationRouter } from './http/email-verification.routes.js';
import { createHeartbeatPingRouter } from './http/heartbeat-ping.routes.js';
import { onCallOpenApiDocument } from './http/on-call.openapi.js';
import { alertPagingOn, pagingEngineOn, pagingPortsOn, type PagingPorts } from './paging.wiring.js';
import type { Notifications } from './notifications.wiring.js';

/** What the on-call app is given: the kit shell and, in tests, lower shift read bounds. */
export interface OnCallDeps extends KitAppShell {
  /** How much GET /v1/shifts reads at most; default SHIFT_READ_BOUNDS (tests lower it). */
  shiftReads?: ShiftReadBounds;
  /** The largest payload an alert source may post; default 512 KiB (INGEST_BODY_LIMIT_BYTES). */
  ingestBodyLimitBytes?: number;
  /** The channels and their action links (notifications.wiring.ts); without them, /alert-actions is not served and no verification email is sent. */
  notifications?: Pick<Notifications, 'notifier' | 'links' | 'email'>;
  /** What paging asks where an alert goes and who a level pages; default the stored routes and escalation plans (paging.wiring.ts). */
  paging?: PagingPorts;
}

export function createOnCallApp(deps: OnCallDeps): Express {
  const ports = deps.paging ?? pagingPortsOn(deps.logger, deps.shiftReads);
  const paging = alertPagingOn(deps.knex, pagingEngineOn(deps.knex, ports));
  const resourceDeps: OnCallResourceDeps = {
    ...createRecordsRepository(deps.knex, deps.logger),
    shiftReads: deps.shiftReads ?? SHIFT_READ_BOUNDS,
    paging,
  };
  const intake = alertIntakeOn(deps.knex, paging);
  const ingestion = createAlertIngestion({ sources: createSourceStore(deps.knex), intake });
  const recorder = deps.metrics ? alertRecorder(deps.metrics) : undefined;
  return createKitApp(deps, {
    registry,
    deps: resourceDeps,
    openapi: onCallOpenApiDocument(),
    routersBefore: (modules) => [
      ...(deps.notifications
        ? [
            createAlertActionsRouter({
              logger: deps.logger,
              actions: createAlertLinkActions({
                links: deps.notifications.links,
                users: createLinkUsersRepository(deps.knex),
                alerts: modules.find((m) => m.definition.type === 'alerts')!,
              }),
            }),
          ]
        : []),
      createEmailVerificationRouter({
        verification: createEmailVerification({
          addresses: modules.find((m) => m.definition.type === 'user_email_addresses')!,
          store: createEmailVerificationRepository(deps.knex),
          email: deps.notifications?.email,
        }),
      }),
      createAlertIngestRouter({
        principals: deps.principals,
        ingestion,
        bodyLimitBytes: deps.ingestBodyLimitBytes ?? 512 * 1024,
        recorder,
      }),
      createHeartbeatPingRouter({
        principals: deps.principals,
        pings: createHeartbeatPings({ store: createHeartbeatPingRepository(deps.knex), heartbeats: registry.get('heartbeats') }),
      }),
      createAlertsCreateRouter({
        intake,
        alerts: modules.find((m) => m.definition.type === 'alerts')!,
        urgencies: modules.find((m) => m.definition.type === 'alert_urgencies')!,
        recorder,
      }),
    ],
  });
}
