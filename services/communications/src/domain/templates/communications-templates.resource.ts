import { z } from 'zod';
import { defineResource, type HookContext, type Row, type Transaction } from '@firewatch/resource-kit';
import type { ValidationIssue } from '@firewatch/errors';
import type { CommunicationsDeps } from '../communications.deps.js';
import { fields, listFilters, listSorts } from '../communications.fields.js';
import { createEntries, entryIssues, updateEntries, type StageEntry } from './template-stage-entries.rules.js';
import { previewAction } from './template-preview.action.js';
import { templateAttributeSchemas, templateStage } from './template-stage.shape.js';

const INPUT = 'communication_template_stages_attributes';
const writable = { name: fields.name, description: fields.description, position: fields.position, communication_type_id: fields.id };

/** The type and stages a write names must be the team's; each stage entry must fit the template. */
async function templateIssues(attributes: Row, ctx: HookContext<CommunicationsDeps>): Promise<ValidationIssue[]> {
  const store = ctx.deps.communications;
  const team = ctx.principal.team_id;
  // A record-scoped key may newly name only the records it lists, so probing ids by writing
  // tells it nothing. It does see the names of the type and stages its templates refer to
  // (a GET shows them, docs/communications.md).
  const listed = ctx.principal.record_ids;
  const visible = (ids: string[]) => (listed === null ? ids : ids.filter((id) => listed.includes(id)));
  const issues: ValidationIssue[] = [];
  // Re-sending the template's own type is no reference to check (a record-scoped key may not list it).
  if (typeof attributes.communication_type_id === 'string' && attributes.communication_type_id !== ctx.existing?.communication_type_id) {
    const [type] = await store.types.held(ctx.tx, team, visible([attributes.communication_type_id]));
    if (!type)
      issues.push({
        pointer: '/data/attributes/communication_type_id',
        code: 'not_found',
        detail: `No communications type of this team has id "${attributes.communication_type_id}".`,
      });
  }
  const entries = attributes[INPUT] as StageEntry[] | null | undefined;
  if (Array.isArray(entries)) {
    const ids = [...new Set(entries.flatMap((e) => (e.communication_stage_id ? [e.communication_stage_id] : [])))];
    const stageNames = new Map((await store.stages.held(ctx.tx, team, visible(ids))).map((s) => [s.id, s.name]));
    const current = (ctx.existing?.communication_template_stages as Row[] | undefined) ?? [];
    issues.push(...(await entryIssues(entries, { current, stageNames, pointer: `/data/attributes/${INPUT}`, liquid: ctx.deps.liquid })));
  }
  return issues;
}

/** The names responses show (the type, stage and template objects of docs/communications.md), read live so a rename shows at once. */
async function withNames(rows: Row[], { tx, deps }: { tx: Transaction | undefined; deps: CommunicationsDeps }): Promise<void> {
  const stagesOf = (row: Row) => (row.communication_template_stages as Row[] | undefined) ?? [];
  const typeIds = [...new Set(rows.map((r) => String(r.communication_type_id)))];
  const stageIds = [...new Set(rows.flatMap((r) => stagesOf(r).map((s) => String(s.communication_stage_id))))];
  // One after the other: inside a transaction both run on its one connection anyway.
  const types = await deps.communications.types.namesOf(tx, typeIds);
  const stages = await deps.communications.stages.namesOf(tx, stageIds);
  for (const row of rows) {
    row.communication_type_name = types.get(String(row.communication_type_id)) ?? null;
    for (const stage of stagesOf(row)) {
      stage.communication_stage_name = stages.get(String(stage.communication_stage_id)) ?? null;
      stage.communication_template_name = row.name;
    }
  }
}

/**
 * Communications templates (docs/communications.md): a type, and per stage the email
 * subject and body, chat and SMS contents, each Liquid checked when written.
 */
export const communicationsTemplates = defineResource<CommunicationsDeps>({
  type: 'communications_templates',
  path: '/v1/communications/templates',
  table: 'communications_templates',
  event: 'communications_template',
  permission: { scope: null, side: 'ir' },
  summary: { singular: 'communications template', plural: 'communications templates' },
  create: z
    .strictObject({ ...writable, [INPUT]: createEntries.nullable() })
    .partial()
    .required({ name: true, communication_type_id: true }),
  update: z.strictObject({ ...writable, [INPUT]: updateEntries.nullable() }).partial(),
  attributes: ['name', 'position', 'slug', 'description', 'communication_type_id', 'communication_type', 'communication_template_stages'],
  attributeSchemas: templateAttributeSchemas,
  computed: {
    communication_type: (row) => ({ id: String(row.communication_type_id), name: row.communication_type_name }),
  },
  children: {
    communication_template_stages: {
      table: 'communications_template_stages',
      key: 'communications_template_id',
      mode: 'by_id',
      columns: ['communication_stage_id', 'email_subject', 'email_body', 'chat_content', 'sms_content'],
      input: INPUT,
      present: templateStage,
    },
  },
  slug: { from: 'name' },
  limit: { max: 1000, detail: 'A team may have at most {max} communications templates.' },
  // A template may hold 1,000,000 characters (TEMPLATE_MAX): a page of 20 is at most ~20 MB.
  page: { defaultSize: 20, maxSize: 20 },
  filters: { ...listFilters, communication_type_id: 'uuid' },
  sorts: listSorts,
  defaultSort: [
    { field: 'position', direction: 'asc' },
    { field: 'created_at', direction: 'asc' },
  ],
  // Left out, or set to null, a position puts the record last.
  position: {},
  updateMethods: ['patch'],
  unique: {
    communications_templates_team_id_name_unique: {
      pointer: '/data/attributes/name',
      detail: 'A communications template with this name already exists.',
    },
  },
  actions: [previewAction],
  hooks: {
    validate: templateIssues,
    expand: withNames,
  },
});
