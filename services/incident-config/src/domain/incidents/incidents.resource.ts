import { z } from 'zod';
import type { ValidationIssue } from '@firewatch/errors';
import { defineResource, type HookContext, type Row } from '@firewatch/resource-kit';
import { incidentStatusAction } from './incident-status.actions.js';
import { privateToCreator } from './incident-visibility.js';
import { INCIDENT_ACTIONS, INCIDENT_STATUSES, INITIAL_STATUSES, initialState } from './incident-status.machine.js';
import { referenceIssues, type ReferencedResource } from '../catalog/record-references.js';
import { list } from '../catalog/catalog-entity.fields.js';

/** The reference's incident kinds (new_incident). */
const KINDS = ['test', 'test_sub', 'example', 'example_sub', 'normal', 'normal_sub', 'backfilled', 'scheduled', 'scheduled_sub'] as const;
const TIMESTAMPS = ['started_at', 'in_triage_at', 'mitigated_at', 'resolved_at', 'cancelled_at'] as const;
const MESSAGES = ['mitigation_message', 'resolution_message', 'cancellation_message'] as const;

const text = (max: number) => z.string().max(max).nullable();
const recordId = z.uuid().transform((id) => id.toLowerCase());

const writable = {
  title: z.string().trim().min(1).max(255),
  summary: text(10_000),
  public_title: text(255),
  kind: z.enum(KINDS),
  private: z.boolean(),
  severity_id: recordId.nullable().describe("The id of one of the team's severities (`/v1/severities`); 422 otherwise."),
  service_ids: list(recordId, 100),
  environment_ids: list(recordId, 100),
  functionality_ids: list(recordId, 100),
  incident_type_ids: list(recordId, 100).describe("Ids of the team's incident types (`/v1/incident_types`); 422 otherwise."),
  labels: z
    .record(z.string().min(1).max(255), z.string().max(1_000))
    .nullable()
    .refine((l) => !l || Object.keys(l).length <= 50, 'holds at most 50 labels')
    .transform((l) => l ?? {}),
};

const REFERENCES: Readonly<Record<string, ReferencedResource>> = {
  service_ids: 'services',
  environment_ids: 'environments',
  functionality_ids: 'functionalities',
  incident_type_ids: 'incident_types',
};

/**
 * A 422 when `severity_id` newly names no severity of the team. The one the incident holds
 * passes, as `referenceIssues` lets held ids pass: a severity in use cannot be deleted, so
 * only a value written before severities were served names none, and a PUT sending back
 * what it read must not fail on it.
 */
async function severityIssues(attributes: Row, ctx: HookContext): Promise<ValidationIssue[]> {
  const id = attributes.severity_id;
  if (typeof id !== 'string' || id === ctx.existing?.severity_id) return [];
  if ((await ctx.visibleIds('severities', [id])).has(id)) return [];
  return [{ pointer: '/data/attributes/severity_id', code: 'invalid_reference', detail: `severity_id: no severity "${id}".` }];
}

/** Checks of a write that need the records it names or the record's past. */
async function incidentIssues(attributes: Row, ctx: HookContext): Promise<ValidationIssue[]> {
  const issues = [...(await referenceIssues(attributes, ctx, REFERENCES)), ...(await severityIssues(attributes, ctx))];
  if (ctx.existing?.private === true && attributes.private === false) {
    issues.push({ pointer: '/data/attributes/private', code: 'immutable', detail: 'A private incident cannot be made public again.' });
  }
  return issues;
}

/**
 * Incidents (issue 9; the reference's incident schemas): created `started` (or
 * `in_triage`), then moved only by the status actions, each with its timestamp and its
 * own event. `{id}` takes the UUID or the slug made from the title.
 */
export const incidents = defineResource({
  type: 'incidents',
  path: '/v1/incidents',
  table: 'incidents',
  event: 'incident',
  permission: { scope: 'ir.incidents', side: 'ir' },
  cascades: [{ resource: 'incident_events', column: 'incident_id' }],
  summary: { singular: 'incident', plural: 'incidents' },
  create: z.strictObject({ ...writable, title: writable.title.nullable(), status: z.enum(INITIAL_STATUSES) }).partial(),
  update: z.strictObject({ ...writable, ...Object.fromEntries(MESSAGES.map((m) => [m, text(10_000)])) }).partial(),
  attributes: [
    'title',
    'slug',
    'kind',
    'status',
    'private',
    'summary',
    'public_title',
    'severity_id',
    'service_ids',
    'environment_ids',
    'functionality_ids',
    'incident_type_ids',
    'labels',
    ...TIMESTAMPS,
    ...MESSAGES,
  ],
  attributeSchemas: {
    slug: { type: 'string' },
    status: { type: 'string', enum: [...INCIDENT_STATUSES], description: 'Changed by the status actions only.' },
    ...Object.fromEntries(
      TIMESTAMPS.map((t) => [t, { type: ['string', 'null'], format: 'date-time', description: 'Set by the status actions.' }]),
    ),
  },
  jsonColumns: ['service_ids', 'environment_ids', 'functionality_ids', 'incident_type_ids', 'labels'],
  // A private incident's slug is unlisted: no create may tell that one holds a title.
  slug: { from: 'title', hidden: (row) => row.private === true },
  relationships: {
    services: { type: 'services', column: 'service_ids', many: true, resource: 'services' },
    environments: { type: 'environments', column: 'environment_ids', many: true, resource: 'environments' },
    functionalities: { type: 'functionalities', column: 'functionality_ids', many: true, resource: 'functionalities' },
    incident_types: { type: 'incident_types', column: 'incident_type_ids', many: true, resource: 'incident_types' },
  },
  filters: {
    search: { kind: 'search', columns: ['title', 'summary'] },
    kind: 'string',
    status: 'string',
    private: 'boolean',
    severity_id: 'string',
    service_ids: 'uuid_list',
    environment_ids: 'uuid_list',
    functionality_ids: 'uuid_list',
    incident_type_ids: 'uuid_list',
    // The reference's name for the same filter.
    type_ids: { kind: 'uuid_list', column: 'incident_type_ids' },
    // The reference's filters by the slugs of the records an incident names (`teams`: incidents name none).
    severity: { kind: 'string', slugOf: { table: 'severities', column: 'severity_id' } },
    types: { kind: 'string', slugOf: { table: 'incident_types', column: 'incident_type_ids', many: true } },
    services: { kind: 'string', slugOf: { table: 'services', column: 'service_ids', many: true } },
    environments: { kind: 'string', slugOf: { table: 'environments', column: 'environment_ids', many: true } },
    functionalities: { kind: 'string', slugOf: { table: 'functionalities', column: 'functionality_ids', many: true } },
    created_at: 'date',
    updated_at: 'date',
    ...Object.fromEntries(TIMESTAMPS.map((t) => [t, 'date' as const])),
  },
  sorts: ['created_at', 'updated_at', 'started_at', 'in_triage_at', 'mitigated_at', 'resolved_at'],
  defaultSort: [{ field: 'created_at', direction: 'desc' }],
  updateMethods: ['put'],
  visibility: privateToCreator,
  actions: INCIDENT_ACTIONS.map(incidentStatusAction),
  hooks: {
    defaults: (attributes) => {
      const { status, ...rest } = attributes;
      return {
        kind: 'normal',
        private: false,
        service_ids: [],
        environment_ids: [],
        functionality_ids: [],
        incident_type_ids: [],
        labels: {},
        ...rest,
        // The reference generates a title when none is given.
        title: rest.title ?? 'Untitled incident',
        ...initialState((status as (typeof INITIAL_STATUSES)[number] | undefined) ?? 'started', new Date()),
      };
    },
    validate: incidentIssues,
    toColumns: (attributes, ctx) => (ctx.existing ? attributes : { ...attributes, created_by_user_id: ctx.principal.user_id }),
  },
});
