import { EVENT_TYPES } from '@firewatch/events';
import { BEARER, errorResponses, jsonApiContent, ref, resourceSchemas, schema, type OpenApiPart } from '@firewatch/openapi';

const T = 'webhooks_event_types';

const { [`${T}_resource`]: resource } = resourceSchemas(T, {
  name: { type: 'string', enum: [...EVENT_TYPES] },
  resource: schema.string('The singular resource name, e.g. `environment`.'),
  action: schema.string('e.g. `created`, `updated`, `deleted`.'),
});

/** `GET /v1/webhooks/event_types`, as event-types.routes.ts serves it: the whole catalog, unpaginated. */
export const eventTypesOpenApi: OpenApiPart = {
  schemas: {
    [`${T}_resource`]: resource,
    [`${T}_list`]: {
      type: 'object',
      required: ['data', 'meta'],
      properties: {
        data: { type: 'array', items: ref(`${T}_resource`) },
        meta: { type: 'object', required: ['total_count'], properties: { total_count: { type: 'integer' } } },
      },
    },
  },
  paths: {
    '/v1/webhooks/event_types': {
      get: {
        operationId: `list_${T}`,
        summary: 'List the event types endpoints may subscribe to',
        description:
          'Any role may read it (OAuth: `all` or `ir.all`): it names event types and carries no record. Endpoints and deliveries need an unrestricted admin.',
        tags: ['webhooks/event_types'],
        security: BEARER,
        responses: {
          '200': { description: 'Every event type', ...jsonApiContent(ref(`${T}_list`)) },
          ...errorResponses(400, 401, 403, 429),
        },
      },
    },
  },
};
