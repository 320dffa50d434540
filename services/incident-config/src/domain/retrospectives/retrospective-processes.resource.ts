import { z } from 'zod';
import type { ValidationIssue } from '@firewatch/errors';
import { defineResource, serialize, type HookContext, type ResourceDefinition, type Row } from '@firewatch/resource-kit';
import type { RetrospectiveProcessesDeps } from './retrospective-processes.lookup.js';
import { criteriaGroupIssues } from './criteria-groups.rules.js';
import { criteriaReferenceIssues } from './matching-criteria.rules.js';
import { criteriaInclude } from '../classifications/classification.include.js';

const STARTER_TEMPLATE = 'starter_template';
const DEFAULT_PROCESS = { name: 'Default', description: 'Used for incidents no other retrospective process matches.' };
const CRITERIA = '/data/attributes/retrospective_process_matching_criteria';

/** Ids of severities, incident types or teams: UUIDs as PostgreSQL writes them, so the in-use checks find them. */
const recordIds = z
  .array(
    z
      .string()
      .min(1)
      .max(255)
      .transform((id) => id.toLowerCase()),
  )
  .max(100)
  .transform((v) => [...new Set(v)]);
/** Criteria that match nothing by themselves; what the specification's object shape holds when there are none. */
const NO_CRITERIA = { severity_ids: [] };
/** Whether criteria name nothing (null, or every list empty). */
const isEmpty = (c: unknown) => c == null || Object.values(c as Record<string, unknown[]>).every((v) => v.length === 0);

/**
 * The reference's oneOf: incidents match by severity, by group or by incident type. Null
 * is taken as none; answers always carry an object (docs/decisions.md, Defaults).
 */
const criteria = z
  .union([
    z.strictObject({ severity_ids: recordIds }),
    z.strictObject({ group_ids: recordIds }),
    z.strictObject({ incident_type_ids: recordIds }),
  ])
  .nullable()
  .transform((c) => c ?? NO_CRITERIA);

const writable = {
  name: z.string().trim().min(1).max(255),
  description: z.string().max(10_000).nullable(),
  retrospective_process_matching_criteria: criteria,
};

type Ctx = HookContext<RetrospectiveProcessesDeps>;

async function copyFromIssues(copyFrom: unknown, ctx: Ctx): Promise<ValidationIssue[]> {
  if (typeof copyFrom !== 'string' || copyFrom === STARTER_TEMPLATE) return [];
  const known =
    z.uuid().safeParse(copyFrom).success &&
    (await ctx.deps.retrospectiveProcesses.exists(ctx.tx, ctx.principal.team_id, copyFrom.toLowerCase()));
  return known
    ? []
    : [
        {
          pointer: '/data/attributes/copy_from',
          code: 'invalid_reference',
          detail: `copy_from: no retrospective process "${copyFrom}", nor "${STARTER_TEMPLATE}".`,
        },
      ];
}

/**
 * Retrospective processes (docs/api-contract.md §1): the steps a team follows after an
 * incident, chosen by matching criteria. A team's default process, the fallback, is made
 * with its first process (same transaction, its own `created` event); it never has
 * criteria and cannot be deleted (422 `default_process`). Steps are not served here, so `copy_from` (a process of the team or
 * `starter_template`) is checked and then has nothing to copy.
 */
export const retrospectiveProcesses: ResourceDefinition<RetrospectiveProcessesDeps> = defineResource<RetrospectiveProcessesDeps>({
  type: 'retrospective_processes',
  path: '/v1/retrospective_processes',
  table: 'retrospective_processes',
  event: 'retrospective_process',
  permission: { scope: 'ir.retrospectives', side: 'ir' },
  summary: { singular: 'retrospective process', plural: 'retrospective processes' },
  create: z
    .strictObject({ ...writable, copy_from: z.string().min(1).max(255) })
    .partial()
    .required({ name: true, copy_from: true }),
  update: z.strictObject(writable).partial(),
  attributes: ['name', 'description', 'is_default', 'retrospective_process_matching_criteria'],
  attributeSchemas: {
    is_default: { type: 'boolean', description: "The fallback process, made with the team's first one; read-only." },
    retrospective_process_matching_criteria: {
      type: 'object',
      description:
        'One of severity_ids, group_ids or incident_type_ids. `{"severity_ids": []}` when there are none (also sent as null): matches nothing by itself (the default process always).',
    },
  },
  jsonColumns: ['retrospective_process_matching_criteria'],
  computed: { retrospective_process_matching_criteria: (row) => row.retrospective_process_matching_criteria ?? NO_CRITERIA },
  filters: { name: 'string', is_default: 'boolean', created_at: 'date' },
  sorts: ['name', 'is_default', 'created_at', 'updated_at'],
  // The fallback first: it is made in the same transaction (and instant) as the first process.
  defaultSort: [
    { field: 'is_default', direction: 'desc' },
    { field: 'created_at', direction: 'asc' },
  ],
  updateMethods: ['put'],
  unique: {
    retrospective_processes_team_id_name_unique: {
      pointer: '/data/attributes/name',
      detail: 'A retrospective process with this name already exists.',
    },
  },
  // The reference's include names: the severities and incident types the criteria name; steps and teams are not loaded here.
  includes: {
    ...Object.fromEntries(['retrospective_steps', 'groups'].map((name) => [name, async () => []])),
    severities: criteriaInclude('severities', 'severity_ids'),
    incident_types: criteriaInclude('incident_types', 'incident_type_ids'),
  },
  hooks: {
    async defaults(attributes, ctx) {
      // A team's first process brings its default along, announced as any create is.
      // A first process itself called "Default" leaves the fallback another name, not a 409.
      const taken =
        String(attributes.name ?? '')
          .trim()
          .toLowerCase() === DEFAULT_PROCESS.name.toLowerCase();
      const fallback = taken ? { ...DEFAULT_PROCESS, name: `${DEFAULT_PROCESS.name} (fallback)` } : DEFAULT_PROCESS;
      const made = await ctx.deps.retrospectiveProcesses.ensureDefault(ctx.tx, ctx.principal.team_id, fallback);
      if (made)
        await ctx.deps.writeEvent(ctx.tx, {
          type: 'retrospective_process.created',
          team_id: ctx.principal.team_id,
          data: serialize(retrospectiveProcesses, made),
        });
      return { description: null, retrospective_process_matching_criteria: NO_CRITERIA, ...attributes, is_default: false };
    },
    async validate(attributes, ctx) {
      if (ctx.existing?.is_default && !isEmpty(attributes.retrospective_process_matching_criteria)) {
        return [
          { pointer: CRITERIA, code: 'default_process', detail: 'The default process is the fallback and cannot have matching criteria.' },
        ];
      }
      return [
        ...(await copyFromIssues(attributes.copy_from, ctx)),
        ...(await criteriaReferenceIssues(attributes, ctx)),
        ...(await criteriaGroupIssues(attributes, ctx)),
      ];
    },
    // Criteria that name nothing are stored as none: the default process's check constraint
    // admits only that, and answers show none as the empty object either way.
    toColumns: ({ copy_from: _copied, ...columns }: Row) =>
      'retrospective_process_matching_criteria' in columns && isEmpty(columns.retrospective_process_matching_criteria)
        ? { ...columns, retrospective_process_matching_criteria: null }
        : columns,
    // The default process is the one row a team may not delete; everything else is open.
    beforeRemove: ({ existing }) =>
      existing?.is_default
        ? [
            {
              pointer: '/data',
              code: 'default_process',
              detail: "The team's default process is its fallback and cannot be deleted; rename it instead.",
            },
          ]
        : [],
  },
});
