import { z } from 'zod';
import { ForbiddenError } from '@firewatch/errors';
import { defineResource, SLUG_PATTERN, type ResourceDefinition, type Row } from '@firewatch/resource-kit';
import { headerValueIssues, maskHeaderValues, sealHeaderValues, type StoredCustomHeader } from './custom-header-values.js';
import { customHeadersSchema, type CustomHeader } from './custom-headers.js';
import { endpointUrlSchema } from './endpoint-url.js';
import { isEventType, widensSubscription } from './event-types.js';
import type { SecretBox } from './secret-box.js';
import { generateSecret, maskSecret, secretHint, secretProblem } from './webhook-secret.js';

export interface EndpointsResourceOptions {
  /** Accept http:// URLs (loopback receivers in tests); https only otherwise. */
  allowHttp: boolean;
  secretBox: SecretBox;
  /**
   * Endpoints one team may have (every event fans out to each of them). `count` runs in
   * the create's transaction and must serialise concurrent creates of a team. Unset: no
   * cap (the dispatcher only serialises endpoints).
   */
  cap?: { max: number; count(tx: unknown, teamId: number): Promise<number> };
}

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

const storedHeaders = (row: Row | undefined) => row?.custom_headers as StoredCustomHeader[] | undefined;

/**
 * Webhook endpoints (spec 2.15). The secret is generated as `whsec_...` unless given,
 * shown in clear in the create response only, stored encrypted, and masked
 * (`whsec_****abcd`) in every later read and in events. Custom header values (where
 * receiver credentials go) are stored sealed too and always shown masked (`****abcd`),
 * even in the create response; a PUT that sends a header back with its mask keeps the
 * stored value. `event_types: []` subscribes to every type. The URL and the secret are
 * fixed at creation (the reference's update accepts neither).
 */
export function createEndpointsResource(options: EndpointsResourceOptions): ResourceDefinition {
  const secret = z.string().max(200).superRefine((s, ctx) => {
    const problem = secretProblem(s);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
  const create = z
    .strictObject({ ...base, url: endpointUrlSchema(options.allowHttp), secret })
    .partial()
    .required({ name: true, url: true });

  const definition = defineResource({
    type: 'webhooks_endpoints',
    path: '/v1/webhooks/endpoints',
    table: 'webhooks_endpoints',
    event: 'webhooks_endpoint',
    permission: { scope: null, side: 'ir' },
    summary: { singular: 'webhook endpoint', plural: 'webhook endpoints' },
    create,
    update: z.strictObject(base).partial(),
    attributes: ['name', 'slug', 'url', 'event_types', 'secret', 'enabled', 'custom_headers'],
    jsonColumns: ['event_types', 'custom_headers'],
    slug: { from: 'name' },
    filters: { slug: 'string', name: 'string' },
    sorts: ['name', 'slug', 'created_at', 'updated_at'],
    defaultSort: [{ field: 'created_at', direction: 'asc' }],
    validate: async (attributes, ctx) => {
      if (!ctx.existing && options.cap && (await options.cap.count(ctx.tx, ctx.principal.team_id)) >= options.cap.max) {
        return [{ pointer: '/data', code: 'limit_reached', detail: `This team already has ${options.cap.max} webhook endpoints, the most it may have; delete one first.` }];
      }
      if (ctx.principal.record_ids !== null && ctx.existing && Array.isArray(attributes.event_types)
        && widensSubscription(ctx.existing.event_types as string[], attributes.event_types as string[])) {
        throw new ForbiddenError('A record-scoped key may narrow the event types of an endpoint but not widen them.', { code: 'subscription_widening' });
      }
      if (!Array.isArray(attributes.custom_headers)) return [];
      return headerValueIssues(attributes.custom_headers as CustomHeader[], storedHeaders(ctx.existing));
    },
    defaults: (attributes) => ({ event_types: [], custom_headers: [], enabled: true, ...attributes, secret: attributes.secret ?? generateSecret() }),
    toColumns: (attributes: Row, ctx) => {
      const { secret: plain, ...rest } = attributes;
      const columns: Row = { ...rest };
      if (Array.isArray(attributes.custom_headers)) {
        columns.custom_headers = sealHeaderValues(attributes.custom_headers as CustomHeader[], storedHeaders(ctx.existing), options.secretBox);
      }
      if (typeof plain === 'string') {
        columns.secret_ciphertext = options.secretBox.seal(plain);
        columns.secret_hint = secretHint(plain);
      }
      // Enabling an endpoint by hand forgets why it was disabled and its failure streak.
      if (attributes.enabled === true) Object.assign(columns, { failing_since: null, disabled_reason: null });
      return columns;
    },
    computed: {
      secret: (row) => maskSecret(String(row.secret_hint ?? '')),
      custom_headers: (row) => maskHeaderValues(row.custom_headers as StoredCustomHeader[] | null),
    },
    revealOnCreate: (attributes) => ({ secret: attributes.secret }),
  });
  return definition as unknown as ResourceDefinition;
}
