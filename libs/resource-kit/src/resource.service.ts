import { authorize, type Capability, type Principal } from '@firewatch/auth';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '@firewatch/errors';
import { zodIssuesToValidation, type ListQuery, type Page, type ResourceObject } from '@firewatch/jsonapi';
import type { AnyResourceDefinition, HookContext } from './resource-definition.js';
import type { ActionSpec, CollectionRoute, ResourceWrites, Row, Transaction, VisibilityClause } from './resource-shapes.js';
import type { ResourceRepository } from './resource.repository.js';
import type { RowScope } from './row-scope.js';
import { serialize } from './serialize.js';
import { firstFreeSlug, slugify } from './slug.js';
import { createIncluder, type Related } from './includes.js';

/** Writes an event into the outbox inside the given transaction. */
export type EventWriter = (tx: Transaction, event: { type: string; team_id: number; data: unknown }) => Promise<unknown>;

export interface ResourceServiceDeps {
  repository: ResourceRepository;
  writeEvent: EventWriter;
  /** Handed to the declaration's hooks, actions and source. */
  deps: unknown;
  /** The parent's service, for nested resources. */
  parent?: ResourceService;
  /** Services of the related declarations `include` loads through. */
  related: Related;
}

export interface Loaded {
  record: ResourceObject;
  included: ResourceObject[];
}

/** Where a collection request came in: its route and path parameters. */
export interface CollectionCall {
  route: CollectionRoute;
  params: Record<string, string>;
}

const SLUG_RETRIES = 3;

/** The use cases of a declared resource: authorisation, rules, persistence and events. */
export function createResourceService(def: AnyResourceDefinition, { repository, writeEvent, deps, parent, related }: ResourceServiceDeps) {
  const noun = def.summary?.singular ?? def.type;
  const ownerGroupsOf = (row: Row) => (def.ownerGroups ? ((row[def.ownerGroups.column] as string[] | null) ?? []) : undefined);
  const can = (principal: Principal, action: Capability, row?: Row) =>
    authorize(principal, { ...def.permission, action, recordId: row?.id === undefined ? undefined : String(row.id), ownerGroupIds: row && ownerGroupsOf(row) });

  function scopeFor(principal: Principal, where?: Row, action: Capability = 'read'): RowScope {
    const narrowings: (readonly VisibilityClause[])[] = [];
    const visible = def.visibility?.(principal, action);
    if (visible) narrowings.push(visible);
    if (def.ownerGroups && principal.group_ids !== null) narrowings.push([{ column: def.ownerGroups.column, overlaps: principal.group_ids }]);
    return { teamId: principal.team_id, where, recordIds: principal.record_ids, narrowings };
  }

  /** The record as the caller may see it, or a 404 (another team's, hidden, or its parent hidden). */
  async function load(tx: Transaction | undefined, principal: Principal, idOrSlug: string, action: Capability, forUpdate = false): Promise<Row> {
    const row = await repository.find(tx, scopeFor(principal), idOrSlug, forUpdate);
    if (!row) throw new NotFoundError(`No ${noun} with id${def.slug ? ' or slug' : ''} "${idOrSlug}".`);
    if (def.parent && parent) await parent.visible(tx, principal, String(row[def.parent.column]));
    can(principal, action, row);
    if (action !== 'read' && def.visibility?.(principal, action) && !(await repository.find(tx, scopeFor(principal, undefined, action), String(row.id)))) {
      throw new ForbiddenError(`You may see this ${noun} but not ${action} it.`, { code: 'not_granted' });
    }
    return row;
  }

  async function parentOf(tx: Transaction | undefined, principal: Principal, call: CollectionCall): Promise<Row | undefined> {
    if (!def.parent || !parent) return undefined;
    return parent.visible(tx, principal, call.params[def.parent.param] ?? '');
  }

  const whereOf = (call: CollectionCall, parentRow?: Row): Row => ({
    ...(call.route.fixed ?? {}),
    ...(def.parent && parentRow ? { [def.parent.column]: parentRow.id } : {}),
  });

  async function checked(attrs: Row, ctx: HookContext): Promise<void> {
    const issues = def.validate ? await def.validate(attrs, ctx) : [];
    if (issues.length) throw new ValidationError(issues);
  }

  async function withinLimit(tx: Transaction, principal: Principal, row: Row): Promise<void> {
    if (!def.limit) return;
    const max = typeof def.limit.max === 'function' ? def.limit.max(deps) : def.limit.max;
    const per = def.limit.per ? { column: def.limit.per, value: row[def.limit.per] } : undefined;
    if ((await repository.lockAndCount(tx, principal.team_id, per)) >= max) {
      throw new ValidationError([{ pointer: '/data', code: 'limit_reached', detail: def.limit.detail.replace('{max}', String(max)) }]);
    }
  }

  const emit = (tx: Transaction, principal: Principal, action: string, record: ResourceObject) =>
    writeEvent(tx, { type: `${def.event}.${action}`, team_id: principal.team_id, data: record });

  async function createIn(tx: Transaction, principal: Principal, attributes: Row, where: Row, parentRow?: Row): Promise<ResourceObject> {
    const ctx: HookContext = { principal, tx, deps, parent: parentRow };
    let attrs = def.defaults ? await def.defaults({ ...attributes }, ctx) : { ...attributes };
    can(principal, 'create', def.ownerGroups ? { [def.ownerGroups.column]: attrs[def.ownerGroups.column] } : undefined);
    await checked(attrs, ctx);
    await withinLimit(tx, principal, { ...attrs, ...where });
    if (def.slug && typeof attrs.slug !== 'string') {
      const base = slugify(String(attrs[def.slug.from] ?? ''));
      attrs = { ...attrs, slug: firstFreeSlug(base, await repository.slugsLike(tx, principal.team_id, base)) };
    }
    const columns = def.toColumns ? await def.toColumns(attrs, ctx) : attrs;
    const inserted = await repository.insert(tx, { ...columns, ...where, team_id: principal.team_id });
    await repository.writeChildren(tx, String(inserted.id), attrs);
    const [row] = await repository.attachChildren(tx, [inserted]);
    const record = serialize(def, row);
    await emit(tx, principal, 'created', record);
    if (!def.revealOnCreate) return record;
    return { ...record, attributes: { ...record.attributes, ...def.revealOnCreate(attrs, row) } };
  }

  async function updateIn(tx: Transaction, principal: Principal, existing: Row, attributes: Row, event = 'updated'): Promise<ResourceObject> {
    const ctx: HookContext = { principal, tx, existing, deps };
    if (def.ownerGroups && def.ownerGroups.column in attributes) {
      authorize(principal, { ...def.permission, action: 'update', ownerGroupIds: (attributes[def.ownerGroups.column] as string[] | null) ?? [], assigning: true });
    }
    await checked({ ...attributes }, ctx);
    const columns = def.toColumns ? await def.toColumns({ ...attributes }, ctx) : attributes;
    const updated = await repository.update(tx, principal.team_id, String(existing.id), columns);
    await repository.writeChildren(tx, String(existing.id), attributes);
    const [row] = await repository.attachChildren(tx, [updated]);
    const record = serialize(def, row);
    await emit(tx, principal, event, record);
    return record;
  }

  async function removeIn(tx: Transaction, principal: Principal, existing: Row): Promise<ResourceObject> {
    await repository.remove(tx, principal.team_id, String(existing.id));
    const record = serialize(def, existing);
    await emit(tx, principal, 'deleted', record);
    return record;
  }

  const writesIn = (tx: Transaction, principal: Principal): ResourceWrites => ({
    create: (attributes) => createIn(tx, principal, attributes, {}),
    update: (existing, attributes, event) => { can(principal, 'update', existing); return updateIn(tx, principal, existing, attributes, event); },
    remove: (existing) => { can(principal, 'delete', existing); return removeIn(tx, principal, existing); },
    findWhere: (where) => repository.findAll(tx, scopeFor(principal, where)),
    serialize: (row) => serialize(def, row),
  });

  const included = createIncluder(def, related);

  return {
    definition: def,

    /** The record if the caller may read it, else a 404; for the children of a parent. */
    async visible(tx: Transaction | undefined, principal: Principal, idOrSlug: string): Promise<Row> {
      return load(tx, principal, idOrSlug, 'read');
    },

    /** Rows with these ids the caller may see (for `include` from another resource). */
    async visibleByIds(principal: Principal, ids: readonly string[]): Promise<Row[]> {
      return ids.length ? repository.findAll(undefined, { ...scopeFor(principal), where: undefined, ids }) : [];
    },

    async list(principal: Principal, query: ListQuery, call: CollectionCall) {
      can(principal, 'read');
      const parentRow = await parentOf(undefined, principal, call);
      const { rows, total } = await repository.list(scopeFor(principal, whereOf(call, parentRow)), query);
      return { records: rows.map((r) => serialize(def, r)), total, included: await included(rows, query.include, principal) };
    },

    async get(principal: Principal, idOrSlug: string, include: string[] = []): Promise<Loaded> {
      const row = await load(undefined, principal, idOrSlug, 'read');
      return { record: serialize(def, row), included: await included([row], include, principal) };
    },

    async create(principal: Principal, attributes: Row, call: CollectionCall): Promise<ResourceObject> {
      can(principal, 'create');
      for (let attempt = 1; ; attempt++) {
        try {
          return await repository.transaction(async (tx) => {
            const parentRow = await parentOf(tx, principal, call);
            return createIn(tx, principal, attributes, whereOf(call, parentRow), parentRow);
          });
        } catch (err) {
          // Two creates can pick the same generated slug; the loser picks again.
          const generated = def.slug && typeof attributes.slug !== 'string';
          if (!(err instanceof ConflictError && err.code === 'slug_taken' && generated && attempt < SLUG_RETRIES)) throw err;
        }
      }
    },

    /**
     * `readAttributes` parses the request body once the record is known to exist and be
     * the caller's, so an unknown id is a 404 before the body is judged; it receives the
     * record, whose id (and slug) a `data.id` in the body must name.
     */
    async update(principal: Principal, idOrSlug: string, readAttributes: (existing: Row) => Row): Promise<ResourceObject> {
      return repository.transaction(async (tx) => {
        const existing = await load(tx, principal, idOrSlug, 'update', true);
        return updateIn(tx, principal, existing, readAttributes(existing));
      });
    },

    async remove(principal: Principal, idOrSlug: string): Promise<ResourceObject> {
      return repository.transaction(async (tx) => removeIn(tx, principal, await load(tx, principal, idOrSlug, 'delete', true)));
    },

    /** Runs an action in one transaction: capabilities, body, the record for item actions. */
    async act(action: ActionSpec<unknown>, principal: Principal, rawBody: unknown, params: Record<string, string>, idOrSlug?: string) {
      const [first, ...rest] = action.capabilities;
      if (action.hiddenFromRecordKeys && principal.record_ids !== null) throw new NotFoundError();
      if (idOrSlug === undefined) for (const c of action.capabilities) can(principal, c);
      let body: unknown;
      if (action.body) {
        const parsed = action.body.safeParse(rawBody);
        if (!parsed.success) throw new ValidationError(zodIssuesToValidation(parsed.error.issues, ''));
        body = parsed.data;
      }
      return repository.transaction(async (tx) => {
        const record = idOrSlug === undefined ? undefined : await load(tx, principal, idOrSlug, first ?? 'read', true);
        if (record) for (const c of rest) can(principal, c, record);
        const parentRow = idOrSlug === undefined && def.parent && parent ? await parent.visible(tx, principal, params[def.parent.param] ?? '') : undefined;
        return action.run({ principal, tx, deps, body, params, parent: parentRow, record, resource: writesIn(tx, principal) });
      });
    },

    /** A computed collection: the source lists its rows from validated parameters. */
    async computed(principal: Principal, params: Row, page: Page, call: CollectionCall) {
      can(principal, 'read');
      const parentRow = await parentOf(undefined, principal, call);
      const { rows, meta } = await def.source!.list({ principal, deps, params, page, parent: parentRow });
      return { records: rows.map((r) => serialize(def, r)), meta };
    },
  };
}

export type ResourceService = ReturnType<typeof createResourceService>;
