import { z } from 'zod';
import { defineResource, type Row } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import { ownerGroupIssues } from '../targets/group-references.js';
import { sourceIssues, writable } from './alert-sources.schemas.js';
import { rotateSecretAction } from './rotate-secret.action.js';
import { generateSourceSecret, hashSourceSecret, maskSourceSecret, sourceSecretHint } from './source-secret.js';

/** Where a source's monitoring tool posts, relative to the public base URL (docs/on-call.md, "Ingestion"). */
export const ingestPath = (id: string) => `/ingest/alert_sources/${id}`;

const nullableString = (description: string) => ({ type: 'string', nullable: true, description });

/**
 * Alert sources (issue 23, the reference's alerts_source): where alerts come from and how
 * a payload becomes an alert (template, deduplication key, auto-resolve). Each has an
 * ingestion secret, generated here, shown once in the create answer (and by
 * `rotate_secret`), stored as its SHA-256 and masked (`fwas_****abcd`) everywhere else.
 * `status` is `connected` once a payload was accepted, else `setup_complete`; the last
 * refused payload's reason stays in `last_error_*`.
 */
export const alertSources = defineResource<OnCallResourceDeps>({
  type: 'alert_sources',
  path: '/v1/alert_sources',
  table: 'alert_sources',
  event: 'alert_source',
  permission: { scope: 'oc.alert_sources', side: 'oc' },
  summary: { singular: 'alert source', plural: 'alert sources' },
  create: z.strictObject(writable).partial().required({ name: true }),
  update: z.strictObject(writable).partial(),
  attributes: [
    'name',
    'source_type',
    'enabled',
    'rate_limit_per_minute',
    'status',
    'secret',
    'webhook_endpoint',
    'alert_urgency_id',
    'deduplicate_alerts_by_key',
    'deduplication_key_kind',
    'deduplication_key_path',
    'deduplication_key_regexp',
    'owner_group_ids',
    'alert_template_attributes',
    'sourceable_attributes',
    'last_received_at',
    'last_error_at',
    'last_error_message',
  ],
  jsonColumns: ['owner_group_ids', 'alert_template_attributes', 'sourceable_attributes'],
  ownerGroups: { column: 'owner_group_ids' },
  filters: {
    search: { kind: 'search', columns: ['name'] },
    name: 'string',
    source_types: { kind: 'string', column: 'source_type' },
    enabled: 'boolean',
    created_at: 'date',
  },
  sorts: ['name', 'created_at', 'updated_at'],
  defaultSort: [{ field: 'created_at', direction: 'asc' }],
  updateMethods: ['put'],
  computed: {
    status: (row) => (row.last_received_at ? 'connected' : 'setup_complete'),
    secret: (row) => maskSourceSecret(String(row.secret_hint)),
    webhook_endpoint: (row) => ingestPath(String(row.id)),
  },
  attributeSchemas: {
    status: {
      type: 'string',
      enum: ['connected', 'setup_complete', 'setup_incomplete'],
      description: 'connected once a payload was accepted.',
    },
    secret: {
      type: 'string',
      description: 'The ingestion secret: whole in the create and rotate_secret answers only, else masked (fwas_****abcd).',
    },
    webhook_endpoint: {
      type: 'string',
      description: 'The ingestion path, relative to the public base URL; send the secret as Authorization: Bearer.',
    },
    rate_limit_per_minute: {
      type: 'integer',
      nullable: true,
      minimum: 1,
      description: "Payloads a minute the gateway admits for this source (429 beyond); null: the deployment's default.",
    },
    last_received_at: { type: 'string', format: 'date-time', nullable: true, description: 'When a payload was last accepted.' },
    last_error_at: { type: 'string', format: 'date-time', nullable: true, description: 'When a payload was last refused.' },
    last_error_message: nullableString('Why the last refused payload was refused.'),
  },
  actions: [rotateSecretAction],
  hooks: {
    defaults: (attributes) => ({
      source_type: 'generic_webhook',
      enabled: true,
      rate_limit_per_minute: null,
      alert_urgency_id: null,
      deduplicate_alerts_by_key: false,
      deduplication_key_kind: 'payload',
      deduplication_key_path: null,
      deduplication_key_regexp: null,
      owner_group_ids: [],
      alert_template_attributes: null,
      sourceable_attributes: null,
      ...attributes,
      secret: generateSourceSecret(),
    }),
    async validate(attributes, ctx) {
      const issues = [...sourceIssues({ ...ctx.existing, ...attributes }), ...(await ownerGroupIssues(attributes, ctx))];
      const urgency = attributes.alert_urgency_id;
      if (typeof urgency === 'string' && !(await ctx.visibleIds('alert_urgencies', [urgency])).has(urgency))
        issues.push({
          pointer: '/data/attributes/alert_urgency_id',
          code: 'not_found',
          detail: 'alert_urgency_id: the team has no such alert urgency',
        });
      return issues;
    },
    toColumns(attributes) {
      const { secret, ...columns }: Row = attributes;
      if (typeof secret === 'string')
        Object.assign(columns, { secret_hash: hashSourceSecret(secret), secret_hint: sourceSecretHint(secret) });
      return columns;
    },
    revealOnCreate: (attributes) => ({ secret: attributes.secret }),
  },
});
