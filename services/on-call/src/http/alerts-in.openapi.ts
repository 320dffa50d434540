import { describePermission } from '@firewatch/auth';
import {
  BEARER,
  errorResponses,
  fromZod,
  jsonApiContent,
  pathParameter,
  ref,
  requestDocumentSchema,
  type OpenApiPart,
} from '@firewatch/openapi';
import { createAlertSchema } from '../domain/alerts-in/alerts.schemas.js';
import { alerts } from '../domain/alerts-in/alerts.resource.js';

const accepted = {
  type: 'object',
  required: ['data', 'meta'],
  properties: {
    data: {
      type: 'array',
      description: 'The alerts the payload created, deduplicated into or resolved.',
      items: {
        type: 'object',
        required: ['type', 'id'],
        properties: { type: { type: 'string', const: 'alerts' }, id: { type: 'string', format: 'uuid' } },
      },
    },
    meta: {
      type: 'object',
      properties: {
        outcomes: { type: 'array', items: { type: 'string', enum: ['created', 'deduplicated', 'resolved', 'unmatched'] } },
        ignored: { type: 'string', enum: ['source_disabled'] },
      },
    },
  },
};

/** `POST /v1/alerts` (alerts-create.routes.ts) and the ingestion paths (alert-ingest.routes.ts, heartbeat-ping.routes.ts). */
export const alertsInOpenApi: OpenApiPart = {
  schemas: { new_alerts: requestDocumentSchema('alerts', fromZod(createAlertSchema), { withId: false }) },
  paths: {
    '/v1/alerts': {
      post: {
        operationId: 'create_alerts',
        summary: 'Create an alert',
        description: `201 with Location for a new alert; 200 with the existing alert (\`received_count\` one higher, an event on its timeline) when an unresolved alert made through the API has the same \`deduplication_key\`. ${describePermission(alerts.permission)}`,
        tags: ['alerts'],
        security: BEARER,
        requestBody: { required: true, ...jsonApiContent(ref('new_alerts')) },
        responses: {
          '201': { description: 'created', ...jsonApiContent(ref('alerts_response')) },
          '200': { description: 'deduplicated into an unresolved alert with the same key', ...jsonApiContent(ref('alerts_response')) },
          ...errorResponses(400, 401, 403, 415, 422, 429),
        },
      },
    },
    '/ingest/alert_sources/{id}': {
      post: {
        operationId: 'ingest_alert_sources',
        summary: "Post a monitoring tool's payload to an alert source",
        description:
          "For monitoring tools, not API clients: authenticated by the source's own secret (`Authorization: Bearer fwas_…`), not an API key. A JSON payload (at most 512 KiB by default) mapped by the source's type and template; 202 once its alerts are committed. 401 for an unknown source or a wrong secret alike; 415 for a body that is not JSON, 400 for invalid JSON, 413 for a body too large, 422 for a payload that maps to no alert, each noted on the source as `last_error_*`. Rate-limited per source at the gateway.",
        tags: ['alert_sources'],
        security: BEARER,
        parameters: [pathParameter('id', 'The alert source id (UUID).')],
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
        responses: {
          '202': { description: 'accepted and committed', content: { 'application/json': { schema: accepted } } },
          ...errorResponses(400, 401, 413, 415, 422, 429),
        },
      },
    },
    '/ingest/heartbeats/{id}': {
      get: heartbeatPing('ping_heartbeat_url'),
      post: heartbeatPing('ping_heartbeat_url_post'),
    },
  },
};

/** A heartbeat's ping URL (heartbeat-ping.routes.ts), by GET (a crontab's curl) or POST. */
function heartbeatPing(operationId: string) {
  return {
    operationId,
    summary: "Ping a heartbeat with its own secret (a cron job's ping URL)",
    description:
      "For cron jobs, not API clients: authenticated by the heartbeat's own secret (`Authorization: Bearer fwhb_…`, or appended to the path as `/ingest/heartbeats/{id}/{secret}`, which the gateway strips before forwarding), not an API key. The body, if any, is not read. 204 once the heartbeat is active for one more interval (`heartbeat.pinged`); 401 for an unknown heartbeat or a wrong secret alike. Rate-limited per heartbeat at the gateway.",
    tags: ['heartbeats'],
    security: BEARER,
    parameters: [pathParameter('id', 'The heartbeat id (UUID).')],
    responses: { '204': { description: 'the ping was noted' }, ...errorResponses(401, 429) },
  };
}
