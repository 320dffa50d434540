import {
  BEARER,
  errorResponses,
  IF_MATCH,
  IF_NONE_MATCH,
  includeParameter,
  jsonApiContent,
  listParameters,
  NOT_MODIFIED,
  pathParameter,
  ref,
  resourceSchemas,
  schema,
  taggedResponse,
  type Json,
  type OpenApiPart,
} from '@firewatch/openapi';
import { describePermission } from '@firewatch/auth';
import { INCLUDED_ATTEMPTS_MAX } from '../domain/deliveries/deliveries.service.js';
import { WEBHOOKS_PERMISSION } from '../domain/webhooks-permission.js';
import { DELIVERY_PAGE, DELIVERY_STATUSES } from './deliveries.routes.js';

const DELIVERY = 'webhooks_deliveries';
const ATTEMPT = 'webhooks_delivery_attempts';
const tags = ['webhooks/deliveries'];
const id = pathParameter('id', 'The delivery id (UUID), also its `webhook-id` header.');
const PERMISSION = describePermission(WEBHOOKS_PERMISSION);

// As toDeliveryResource writes them.
const delivery: Record<string, Json> = {
  endpoint_id: { type: 'string', format: 'uuid' },
  payload: schema.string('The exact body sent, signed, on every attempt (JSON text).'),
  delivered_at: schema.dateTime(true),
  event_id: { type: 'string', format: 'uuid' },
  event_type: schema.string(),
  status: schema.enum(DELIVERY_STATUSES),
  attempt_count: { type: 'integer', minimum: 0 },
  next_attempt_at: schema.dateTime(true),
  last_status_code: schema.nullable('integer'),
  created_at: schema.dateTime(),
  updated_at: schema.dateTime(),
};

// As toAttemptResource writes them: the attempt's row.
const attempt: Record<string, Json> = {
  delivery_id: { type: 'string', format: 'uuid' },
  attempt_number: { type: 'integer', minimum: 1 },
  trigger: schema.enum(['scheduled', 'manual']),
  url: schema.string(),
  status_code: schema.nullable('integer', 'Null when no response came (timeout, refused address, connection error).'),
  duration_ms: { type: 'integer', minimum: 0 },
  response_body: schema.nullable('string', 'The start of the response body.'),
  error: schema.nullable('string'),
  created_at: schema.dateTime(),
};

const include = {
  ...includeParameter(['attempts']),
  description: `\`attempts\`: the latest ${INCLUDED_ATTEMPTS_MAX} attempts of each delivery; \`/attempts\` pages through all.`,
};

/** Deliveries and `POST .../deliver`, as deliveries.routes.ts serves them. */
export const deliveriesOpenApi: OpenApiPart = {
  schemas: { ...resourceSchemas(DELIVERY, delivery, { included: [ATTEMPT] }), ...resourceSchemas(ATTEMPT, attempt) },
  paths: {
    '/v1/webhooks/endpoints/{endpoint_id}/deliveries': {
      get: {
        operationId: `list_${DELIVERY}`,
        summary: "List an endpoint's deliveries",
        description: `Newest first unless \`sort=created_at\`. ${PERMISSION}`,
        tags,
        security: BEARER,
        parameters: [
          pathParameter('endpoint_id', 'The endpoint id (UUID) or slug.'),
          ...listParameters({ page: DELIVERY_PAGE, sorts: ['created_at'], cursor: true }),
          include,
          { name: 'filter[status]', in: 'query', schema: schema.enum(DELIVERY_STATUSES) },
          {
            name: 'filter[status][in]',
            in: 'query',
            schema: { type: 'string' },
            description: `Comma-separated: ${DELIVERY_STATUSES.join(', ')}.`,
          },
        ],
        responses: {
          '200': { description: 'A page of deliveries', ...jsonApiContent(ref(`${DELIVERY}_list`)) },
          ...errorResponses(400, 401, 403, 404, 429),
        },
      },
    },
    '/v1/webhooks/deliveries/{id}': {
      get: {
        operationId: `get_${DELIVERY}`,
        summary: 'Get a delivery',
        description: PERMISSION,
        tags,
        security: BEARER,
        parameters: [id, include, IF_NONE_MATCH],
        responses: {
          '200': taggedResponse({ description: 'The delivery', ...jsonApiContent(ref(`${DELIVERY}_response`)) }),
          ...NOT_MODIFIED,
          ...errorResponses(400, 401, 403, 404, 429),
        },
      },
    },
    '/v1/webhooks/deliveries/{id}/attempts': {
      get: {
        operationId: `list_${ATTEMPT}`,
        summary: "List a delivery's attempts",
        description: `Oldest first. ${PERMISSION}`,
        tags,
        security: BEARER,
        parameters: [id, ...listParameters({ page: DELIVERY_PAGE, cursor: true })],
        responses: {
          '200': { description: 'A page of attempts', ...jsonApiContent(ref(`${ATTEMPT}_list`)) },
          ...errorResponses(400, 401, 403, 404, 429),
        },
      },
    },
    '/v1/webhooks/deliveries/{id}/deliver': {
      post: {
        operationId: `deliver_${DELIVERY}`,
        summary: 'Send a delivery again',
        description: `Due now, on a fresh retry ladder, with the same \`webhook-id\`; 409 \`endpoint_disabled\` while its endpoint is disabled. No request body. ${PERMISSION}`,
        tags,
        security: BEARER,
        parameters: [id, IF_MATCH],
        responses: {
          '200': taggedResponse({ description: 'The delivery, pending again', ...jsonApiContent(ref(`${DELIVERY}_response`)) }),
          ...errorResponses(400, 401, 403, 404, 409, 412, 429),
        },
      },
    },
  },
};
