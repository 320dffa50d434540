import { z } from 'zod';
import { defineResource, SLUG_PATTERN, type Row } from '@firewatch/resource-kit';
import { headerValueIssues, maskHeaderValues, sealHeaderValues, type StoredCustomHeader } from './custom-header-values.js';
import { customHeadersSchema, type CustomHeader } from './custom-headers.js';
import { endpointUrlSchema, URL_MAX } from './endpoint-url.js';
import { isEventType } from '../deliveries/event-types.js';
import type { WebhooksResourceDeps } from '../webhooks.deps.js';
import { generateSecret, maskSecret, secretHint, secretProblem } from './webhook-secret.js';
import { WEBHOOKS_PERMISSION } from '../webhooks-permission.js';

const eventTypes = z
  .array(z.string().refine(isEventType, 'is not a known event type (see GET /v1/webhooks/event_types)'))
  .max(500)
  .nullable()
  .transform((v) => [...new Set(v ?? [])]);

const base = {
  name: z.string().trim().min(1).max(255),
  slug: z.string().min(1).max(255).regex(SLUG_PATTERN, 'must contain only a-z, 0-9, - and _'),
  event_types: eventTypes,
  enabled: z.boolean(),
  custom_headers: customHeadersSchema,
};

const secret = z
  .string()
  .max(200)
  .superRefine((s, ctx) => {
    const problem = secretProblem(s);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

// Whether plain http is allowed is a deployment setting, checked in `validate`.
const create = z
  .strictObject({ ...base, url: endpointUrlSchema(true), secret })
  .partial()
  .required({ name: true, url: true });

const storedHeaders = (row: Row | undefined) => row?.custom_headers as StoredCustomHeader[] | undefined;

/**
 * Webhook endpoints (docs/webhooks.md). The secret is generated as `whsec_...` unless given,
 * shown in clear in the create response only, stored encrypted, and masked
 * (`whsec_****abcd`) in every later read and in events. Custom header values (where
 * receiver credentials go) are stored sealed too and always shown masked (`****abcd`),
 * even in the create response; a PUT that sends a header back with its mask keeps the
 * stored value. `event_types: []` subscribes to every type. The URL and the secret are
 * fixed at creation (the reference's update accepts neither). Only unrestricted admins
 * reach any of it (WEBHOOKS_PERMISSION); they see the URL whole, its events carry it
 * masked past the host (endpoint-events.ts).
 */
export const webhooksEndpoints = defineResource<WebhooksResourceDeps>({
  type: 'webhooks_endpoints',
  path: '/v1/webhooks/endpoints',
  table: 'webhooks_endpoints',
  event: 'webhooks_endpoint',
  permission: WEBHOOKS_PERMISSION,
  summary: { singular: 'webhook endpoint', plural: 'webhook endpoints' },
  create,
  update: z.strictObject(base).partial(),
  attributes: ['name', 'slug', 'url', 'event_types', 'secret', 'enabled', 'custom_headers'],
  jsonColumns: ['event_types', 'custom_headers'],
  slug: { from: 'name' },
  filters: { slug: 'string', name: 'string' },
  sorts: ['name', 'slug', 'created_at', 'updated_at'],
  defaultSort: [{ field: 'created_at', direction: 'asc' }],
  limit: {
    max: (deps) => deps.maxEndpointsPerTeam,
    detail: 'This team already has {max} webhook endpoints, the most it may have; delete one first.',
  },
  computed: {
    secret: (row) => maskSecret(String(row.secret_hint ?? '')),
    custom_headers: (row) => maskHeaderValues(row.custom_headers as StoredCustomHeader[] | null),
  },
  attributeSchemas: {
    secret: { type: 'string', description: 'Masked (whsec_****abcd) except in the create response.' },
    url: {
      type: 'string',
      maxLength: URL_MAX,
      description: 'Whole in API answers; masked past its host (https://hooks.example.com/****) in webhooks_endpoint.* events.',
    },
  },
  hooks: {
    defaults: (attributes) => ({
      event_types: [],
      custom_headers: [],
      enabled: true,
      ...attributes,
      secret: attributes.secret ?? generateSecret(),
    }),
    validate(attributes, ctx) {
      if (typeof attributes.url === 'string' && !ctx.deps.allowHttp && new URL(attributes.url).protocol !== 'https:') {
        return [{ pointer: '/data/attributes/url', code: 'custom', detail: 'url: must be an https URL' }];
      }
      if (!Array.isArray(attributes.custom_headers)) return [];
      return headerValueIssues(attributes.custom_headers as CustomHeader[], storedHeaders(ctx.existing));
    },
    toColumns(attributes, ctx) {
      const { secret: plain, ...rest } = attributes;
      const columns: Row = { ...rest };
      if (Array.isArray(attributes.custom_headers)) {
        columns.custom_headers = sealHeaderValues(
          attributes.custom_headers as CustomHeader[],
          storedHeaders(ctx.existing),
          ctx.deps.secretBox,
        );
      }
      if (typeof plain === 'string') {
        columns.secret_ciphertext = ctx.deps.secretBox.seal(plain);
        columns.secret_hint = secretHint(plain);
      }
      // Enabling an endpoint by hand forgets why it was disabled and its failure streak.
      if (attributes.enabled === true) Object.assign(columns, { failing_since: null, disabled_reason: null });
      return columns;
    },
    revealOnCreate: (attributes) => ({ secret: attributes.secret }),
  },
});
