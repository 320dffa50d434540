import { z } from 'zod';
import { ValidationError } from '@firewatch/errors';
import { defineAction, defineResource, type Row } from '../../src/index.js';

/**
 * Small declarations exercising each kit key, over the tables of kit-harness.ts:
 * boards (private ones visible to owner and grantees, owner groups, slugs), cards
 * nested under boards (a per-board limit, a relationship), rules with conditions
 * replaced as a set, templates with stages written by id, tags at two collection paths
 * with a bulk action, and tallies computed per board.
 */
/** The one dependencies object of the fixtures' registry: what cards and templates read. */
export interface FixtureDeps {
  maxPerBoard: number;
  label: string;
  /** The people notes hang under (no declaration of the registry: a loaded parent), and each load of one. */
  people: readonly number[];
  parentLoads: { id: string; need: string; of: string }[];
}

export const boards = defineResource({
  type: 'boards',
  path: '/v1/boards',
  table: 'boards',
  event: 'board',
  permission: { scope: null, side: 'ir' },
  create: z.strictObject({ name: z.string().min(1), is_private: z.boolean().optional(), owner_group_ids: z.array(z.string()).optional() }),
  update: z.strictObject({ name: z.string().min(1), is_private: z.boolean(), owner_group_ids: z.array(z.string()) }).partial(),
  attributes: ['name', 'slug', 'is_private', 'owner_user_id', 'owner_group_ids'],
  jsonColumns: ['owner_group_ids'],
  filters: { name: 'string', is_private: 'boolean' },
  // owner_user_id may be NULL: cursor pages must place NULLs as ORDER BY does.
  sorts: ['name', 'owner_user_id', 'created_at'],
  // A private board's slug stays off the sequence others probe.
  slug: { from: 'name', hidden: (row) => row.is_private === true },
  ownerGroups: { column: 'owner_group_ids' },
  // Cards go with their board (ON DELETE CASCADE); each is announced.
  cascades: [{ resource: 'cards', column: 'board_id' }],
  // Anyone sees public boards; private ones their owner and grantees. Changing a board
  // takes its ownership, a public board, or an editing grant.
  visibility: (p, action) => [
    { column: 'is_private', equals: false },
    { column: 'owner_user_id', equals: p.user_id },
    {
      granted: {
        table: 'board_grants',
        key: 'board_id',
        where: action === 'read' ? { user_id: p.user_id } : { user_id: p.user_id, can_edit: true },
      },
    },
  ],
  actions: [
    defineAction({
      // Renames every board the caller sees: writes through findWhere meet the update visibility too.
      name: 'rename_all',
      on: 'collection',
      capabilities: ['update'],
      body: z.strictObject({ name: z.string().min(1) }),
      async run({ body, resource }) {
        const rows = await resource.findWhere({}, { forUpdate: true });
        return { document: { data: await Promise.all(rows.map((r) => resource.update(r, { name: body.name }))) } };
      },
    }),
  ],
  hooks: {
    defaults: (a, ctx) => ({ is_private: false, owner_group_ids: [], ...a, owner_user_id: ctx.principal.user_id }),
  },
});

export const cards = defineResource<{ maxPerBoard: number }>({
  type: 'cards',
  path: '/v1/cards',
  table: 'cards',
  event: 'card',
  collections: [{ path: '/v1/boards/{board_id}/cards' }],
  parent: { resource: 'boards', param: 'board_id', column: 'board_id' },
  permission: { scope: null, side: 'ir' },
  create: z.strictObject({ title: z.string().min(1) }),
  update: z.strictObject({ title: z.string().min(1) }).partial(),
  attributes: ['title', 'board_id'],
  relationships: { board: { type: 'boards', column: 'board_id', resource: 'boards' } },
  limit: { max: (deps) => deps.maxPerBoard, per: 'board_id', detail: 'A board holds at most {max} cards.' },
  updateMethods: ['patch'],
});

const operator = z.enum(['is', 'is_not']);
const condition = z.strictObject({ id: z.uuid().optional(), field: z.string().min(1), operator, values: z.array(z.string()).max(10) });

export const rules = defineResource({
  type: 'rules',
  path: '/v1/rules',
  table: 'rules',
  event: 'rule',
  permission: { scope: null, side: 'oc' },
  create: z.strictObject({ name: z.string().min(1), conditions: z.array(condition).max(20).optional() }),
  update: z.strictObject({ name: z.string().min(1), conditions: z.array(condition).max(20), urgent_only: z.boolean() }).partial(),
  attributes: ['name', 'conditions'],
  children: {
    conditions: {
      table: 'rule_conditions',
      key: 'rule_id',
      mode: 'replace',
      columns: ['field', 'operator', 'values'],
      jsonColumns: ['values'],
    },
  },
  updateMethods: ['put'],
  deleteAnswer: 'empty',
  hooks: {
    // A legacy switch mapped onto the conditions: on, it adds the urgency condition to the existing set; off, it drops it.
    prepare({ urgent_only, ...attributes }, { existing }) {
      if (urgent_only === undefined) return attributes;
      const current = (attributes.conditions ?? existing?.conditions ?? []) as Row[];
      const others = current.filter((c) => c.field !== 'urgency');
      return { ...attributes, conditions: urgent_only ? [...others, { field: 'urgency', operator: 'is', values: ['high'] }] : others };
    },
    beforeRemove: ({ existing }) =>
      existing?.name === 'permanent' ? [{ pointer: '/data', code: 'permanent', detail: 'This rule stays.' }] : [],
  },
});

const stage = z.strictObject({
  id: z.uuid().optional(),
  _destroy: z.boolean().optional(),
  name: z.string().min(1).optional(),
  body: z.string().optional(),
});

export const templates = defineResource<{ label: string }>({
  type: 'templates',
  path: '/v1/templates',
  table: 'templates',
  event: 'template',
  permission: { scope: null, side: 'ir' },
  create: z.strictObject({ name: z.string().min(1), stages_attributes: z.array(stage).optional() }),
  update: z.strictObject({ name: z.string().min(1), stages_attributes: z.array(stage) }).partial(),
  attributes: ['name', 'stages', 'outline'],
  children: {
    stages: { table: 'template_stages', key: 'template_id', mode: 'by_id', input: 'stages_attributes', columns: ['name', 'body'] },
  },
  unique: {
    template_stages_template_id_name_unique: { pointer: '/data/attributes/stages_attributes', detail: 'Two stages share a name.' },
  },
  computed: { outline: (row) => row.outline },
  hooks: {
    // What a response shows from elsewhere: here the stage count (read in the transaction when there is one) and a label from deps.
    async expand(rows, { tx, deps }) {
      for (const row of rows)
        row.outline = `${deps.label} ${String(row.name)}: ${(row.stages as unknown[]).length} stages${tx ? ' (tx)' : ''}`;
    },
  },
});

const bulkDelete = z.strictObject({ ids: z.array(z.uuid()).min(1).max(100) });

export const tags = defineResource({
  type: 'tags',
  path: '/v1/tags',
  table: 'tags',
  event: 'tag',
  collections: [
    { path: '/v1/red/tags', fixed: { color: 'red' } },
    { path: '/v1/blue/tags', fixed: { color: 'blue' } },
  ],
  permission: { scope: null, side: 'ir' },
  create: z.strictObject({ name: z.string().min(1) }),
  update: z.strictObject({ name: z.string().min(1) }).partial(),
  attributes: ['name', 'color'],
  actions: [
    defineAction({
      name: 'bulk_delete',
      on: 'collection',
      capabilities: ['delete'],
      body: bulkDelete,
      hiddenFromRecordKeys: true,
      async run({ body: { ids }, resource }) {
        const byId = new Map((await resource.findWhere({ id: ids })).map((r) => [String(r.id), r]));
        const removed = [];
        for (const [i, id] of ids.entries()) {
          // All or nothing: a later unknown id undoes the deletes before it.
          if (!byId.has(id)) throw new ValidationError([{ pointer: `/ids/${i}`, detail: `No tag "${id}".`, code: 'not_found' }]);
          removed.push(await resource.remove(byId.get(id) as Row));
        }
        return { document: { data: removed } };
      },
    }),
    defineAction({
      name: 'rename',
      on: 'item',
      method: 'put',
      capabilities: ['update'],
      body: z.object({
        data: z.strictObject({
          type: z.literal('tags'),
          id: z.string().optional(),
          attributes: z.strictObject({ name: z.string().min(1) }),
        }),
      }),
      async run({ body, record, resource }) {
        return { document: { data: await resource.update(record as Row, { name: body.data.attributes.name }, 'renamed') } };
      },
    }),
    defineAction({
      // Reads only, slowly: its record must stay free for writers meanwhile. Long enough that
      // a write started 100 ms into it finishes first on a loaded machine (400 ms did not, once,
      // in a fresh-clone CI run); a write that waited for it would still finish after it.
      name: 'peek',
      on: 'item',
      capabilities: ['read'],
      async run({ record, resource }) {
        await new Promise((r) => setTimeout(r, 1500));
        return { document: { data: resource.serialize(record as Row) } };
      },
    }),
  ],
});

export const tallies = defineResource({
  // Named apart from its JSON:API type, as a second `tallies` declaration of the service would need.
  type: 'tallies',
  name: 'board_tallies',
  path: '/v1/tallies',
  // Under one board, or (no parent) under the first board the source is given.
  collections: [{ path: '/v1/boards/{board_id}/tallies' }, { path: '/v1/tallies' }],
  parent: { resource: 'boards', param: 'board_id', column: 'board_id' },
  permission: { scope: null, side: 'ir' },
  attributes: ['day', 'count'],
  timestamps: false,
  relationships: { board: { type: 'boards', column: 'board_id', resource: 'boards' } },
  source: {
    params: z.strictObject({ days: z.coerce.number().int().min(1).max(7), board: z.uuid().optional() }),
    async list({ params, parent }) {
      const boardId = parent?.id ?? params.board;
      const rows = Array.from({ length: Number(params.days) }, (_, i) => ({
        id: `${String(boardId)}-${i}`,
        board_id: boardId,
        day: i,
        count: i * 2,
      }));
      return { rows, meta: { total_count: rows.length } };
    },
  },
});

/**
 * Notes under a person who is no declaration of the registry (`/v1/people/{person_id}/notes`):
 * the parent is loaded from `deps.people`, and only the person themselves or an admin has it.
 */
export const notes = defineResource<Pick<FixtureDeps, 'people' | 'parentLoads'>>({
  type: 'notes',
  path: '/v1/notes',
  collections: [{ path: '/v1/people/{person_id}/notes' }],
  parent: {
    param: 'person_id',
    column: 'person_id',
    noun: 'person',
    idFormat: 'integer id',
    async load({ principal, deps, id, need, of }) {
      deps.parentLoads.push({ id, need, of });
      const person = Number(id);
      if (!deps.people.includes(person) || (principal.role !== 'admin' && principal.user_id !== person)) return undefined;
      return { id: person };
    },
  },
  table: 'notes',
  event: 'note',
  permission: { scope: null, side: 'ir' },
  create: z.strictObject({ body: z.string().min(1) }),
  update: z.strictObject({ body: z.string().min(1) }).partial(),
  attributes: ['person_id', 'body'],
  attributeSchemas: { person_id: { type: 'integer' } },
});
