import { Router } from 'express';
import { authorize, getPrincipal } from '@firewatch/auth';
import { ValidationError } from '@firewatch/errors';
import { assertOnlyParams, parseRequestDocument, sendDocument } from '@firewatch/jsonapi';
import type { AlertRecorder } from '@firewatch/metrics';
import type { ResourceModule } from '@firewatch/resource-kit';
import type { AlertIntake, IncomingAlert } from '../domain/alerts-in/alert-intake.js';
import { createAlertSchema } from '../domain/alerts-in/alerts.schemas.js';

/**
 * `POST /v1/alerts` (docs/on-call.md, "Alerts"): by hand rather than the kit's create,
 * because a deduplicated alert is not a new record: 201 with `Location` for a new alert,
 * 200 with the existing one (its `received_count` one higher) when an unresolved alert of
 * the API (no source) has the same `deduplication_key`.
 */
export function createAlertsCreateRouter({
  intake,
  alerts,
  urgencies,
  recorder,
}: {
  intake: AlertIntake;
  alerts: ResourceModule;
  urgencies: ResourceModule;
  /** Counts each alert as `source="api"` (docs/operations.md, "Alert ingestion metrics"). */
  recorder?: AlertRecorder;
}): Router {
  const router = Router();
  router.post('/v1/alerts', async (req, res) => {
    assertOnlyParams(req.query as Record<string, unknown>, []);
    const principal = getPrincipal(req);
    authorize(principal, { ...alerts.definition.permission, action: 'create' });
    const attributes = parseRequestDocument(req.body, { type: 'alerts', attributes: createAlertSchema });
    const { source: _deprecated, ...fields } = attributes;
    const result = await intake.transaction(async (tx) => {
      const urgency = fields.alert_urgency_id;
      if (typeof urgency === 'string' && !(await urgencies.service.visibleIds(tx, principal, [urgency])).has(urgency))
        throw new ValidationError([
          {
            pointer: '/data/attributes/alert_urgency_id',
            code: 'not_found',
            detail: 'alert_urgency_id: the team has no such alert urgency',
          },
        ]);
      const alert: IncomingAlert = { ...fields, status: fields.status ?? 'triggered', deduplication_key: fields.deduplication_key ?? null };
      return intake.receive(tx, { team_id: principal.team_id, source: 'api', alert_source_id: null, user_id: principal.user_id }, alert);
    });
    recorder?.ingested('api', result.outcome);
    const created = result.outcome === 'created';
    if (created) res.setHeader('Location', `/v1/alerts/${result.alert!.id}`);
    sendDocument(res, created ? 201 : 200, { data: result.alert });
  });
  return router;
}
