import { authorize, type Principal } from '@firewatch/auth';
import { ConflictError, ForbiddenError, ValidationError } from '@firewatch/errors';
import type { ResourceObject } from '@firewatch/jsonapi';
import type { AnyResourceDefinition, HookContext } from './resource-definition.js';
import type { EventWriter, ResourceWrites, Row, Transaction } from './resource-shapes.js';
import type { ResourceRepository } from './resource.repository.js';
import type { ResourceAccess } from './resource-access.js';
import type { CascadeAnnouncer } from './cascade.js';
import { serialize } from './serialize.js';
import { createSlugs } from './resource-slugs.js';
import { createUniqueKeyGuard } from './unique-keys.js';

const SLUG_RETRIES = 3;

/**
 * Runs `attempt` (one transaction) again when it lost a race for a generated slug: the
 * unique index refuses the second of two creates that picked the same free slug.
 */
export async function retryingSlugRaces<T>(def: AnyResourceDefinition, attempt: () => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (!(def.slug && err instanceof ConflictError && err.code === 'slug_taken' && n < SLUG_RETRIES)) throw err;
    }
  }
}

/** Which of `ids` name records of the declaration `name` the caller sees (`HookContext.visibleIds`). */
export type VisibleIdsOf = (tx: Transaction, principal: Principal, name: string, ids: readonly string[]) => Promise<Set<string>>;

/** Create, update and delete of one resource inside a given transaction: hooks, limit, slug, children, events. */
export function createResourceWrites(
  def: AnyResourceDefinition,
  {
    repository,
    writeEvent,
    deps,
    access,
    announceCascade,
    visibleIdsOf,
    declaration,
  }: {
    repository: ResourceRepository;
    writeEvent: EventWriter;
    deps: unknown;
    access: ResourceAccess;
    announceCascade?: CascadeAnnouncer;
    visibleIdsOf: VisibleIdsOf;
    /** The service's declarations by name (its registry), for `HookContext.serializeAs` and `announce`. */
    declaration(name: string): AnyResourceDefinition;
  },
) {
  const slugs = createSlugs(def, repository);
  const uniqueKeys = createUniqueKeyGuard(def);
  // The steps run in the order ResourceHooks documents; the kit's own steps sit between them.
  const hooks = def.hooks ?? {};

  async function checked(attrs: Row, ctx: HookContext): Promise<void> {
    const issues = hooks.validate ? await hooks.validate(attrs, ctx) : [];
    if (issues.length) throw new ValidationError(issues);
  }

  async function withinLimit(tx: Transaction, principal: Principal, row: Row): Promise<void> {
    if (!def.limit) return;
    const max = typeof def.limit.max === 'function' ? def.limit.max(deps) : def.limit.max;
    const per = def.limit.per ? { column: def.limit.per, value: row[def.limit.per] ?? null } : undefined;
    if ((await repository.lockAndCount(tx, principal.team_id, per)) >= max) {
      throw new ValidationError([{ pointer: '/data', code: 'limit_reached', detail: def.limit.detail.replace('{max}', String(max)) }]);
    }
  }

  /** `attributes` with the next position where `position` says a record goes last. */
  async function positioned(tx: Transaction, principal: Principal, attributes: Row, row: Row, creating: boolean): Promise<Row> {
    if (!def.position || (attributes.position !== null && !(creating && attributes.position === undefined))) return attributes;
    const per = def.position.per ? { column: def.position.per, value: row[def.position.per] ?? null } : undefined;
    const next = await repository.nextPosition(tx, principal.team_id, per);
    return { ...attributes, position: Math.min(next, def.position.max ?? Number.MAX_SAFE_INTEGER) };
  }

  const serializeAs = (name: string, row: Row) => serialize(declaration(name), row);
  const contextOf = (
    tx: Transaction,
    principal: Principal,
    more: { existing?: Row; parent?: Row; method?: 'put' | 'patch' },
  ): HookContext => ({
    principal,
    tx,
    deps,
    ...more,
    visibleIds: (name, ids) => visibleIdsOf(tx, principal, name, ids),
    serializeAs,
    async announce(name, action, row) {
      await writeEvent(tx, { type: `${declaration(name).event}.${action}`, team_id: principal.team_id, data: serializeAs(name, row) });
    },
  });

  const emit = (tx: Transaction, principal: Principal, action: string, record: ResourceObject) =>
    writeEvent(tx, { type: `${def.event}.${action}`, team_id: principal.team_id, data: record });

  /** `where`: the columns the collection path implies (parent id, fixed values). */
  async function createIn(tx: Transaction, principal: Principal, attributes: Row, where: Row, parentRow?: Row): Promise<ResourceObject> {
    const ctx = contextOf(tx, principal, { parent: parentRow });
    const prepared = hooks.prepare ? await hooks.prepare({ ...attributes }, ctx) : attributes;
    uniqueKeys.check(principal, prepared);
    let attrs = hooks.defaults ? await hooks.defaults({ ...prepared }, ctx) : { ...prepared };
    access.can(principal, 'create', def.ownerGroups ? { [def.ownerGroups.column]: attrs[def.ownerGroups.column] } : undefined);
    await checked(attrs, ctx);
    await withinLimit(tx, principal, { ...attrs, ...where });
    const slugged = slugs.onCreate(principal, attrs);
    attrs = await positioned(tx, principal, slugged.attributes, { ...slugged.attributes, ...where }, true);
    const columns = hooks.toColumns ? await hooks.toColumns(attrs, ctx) : attrs;
    const inserted = await slugs.insert(tx, principal, { ...columns, ...where, team_id: principal.team_id }, slugged.tentative);
    // The slug the insert settled on (a tentative one may have moved along the sequence).
    if (def.slug) attrs = { ...attrs, slug: inserted.slug };
    await repository.writeChildren(tx, String(inserted.id), attrs);
    const [row] = await repository.attachChildren(tx, [inserted]);
    const record = serialize(def, row);
    await emit(tx, principal, 'created', record);
    // Child rows that are records of another declaration are announced as its creates.
    for (const [attribute, spec] of Object.entries(def.children ?? {})) {
      if (spec.announce)
        for (const child of (row[attribute] as Row[] | undefined) ?? []) await ctx.announce(spec.announce, 'created', child);
    }
    const shown = access.present(principal, row, record);
    if (!hooks.revealOnCreate) return shown;
    return { ...shown, attributes: { ...shown.attributes, ...hooks.revealOnCreate(attrs, row) } };
  }

  async function updateIn(
    tx: Transaction,
    principal: Principal,
    existing: Row,
    given: Row,
    event = 'updated',
    method?: 'put' | 'patch',
  ): Promise<ResourceObject> {
    const ctx = contextOf(tx, principal, { existing, method });
    const attributes = hooks.prepare ? await hooks.prepare({ ...given }, ctx) : given;
    uniqueKeys.check(principal, attributes, existing);
    if (def.ownerGroups && def.ownerGroups.column in attributes) {
      const ownerGroupIds = (attributes[def.ownerGroups.column] as string[] | null) ?? [];
      authorize(principal, { ...def.permission, action: 'update', recordId: String(existing.id), ownerGroupIds, assigning: true });
      // A group key moves its own groups only: the other owners of a shared record stay.
      const mine = principal.group_ids;
      const others = ((existing[def.ownerGroups.column] as string[] | null) ?? []).filter((g) => mine !== null && !mine.includes(g));
      if (others.some((g) => !ownerGroupIds.includes(g))) {
        throw new ForbiddenError("A group-scoped key may add or remove only its own groups; the record's other owner groups must stay.", {
          code: 'owner_groups',
        });
      }
    }
    await checked({ ...attributes }, ctx);
    const written = await positioned(tx, principal, slugs.onUpdate(existing, attributes), existing, false);
    const columns = hooks.toColumns ? await hooks.toColumns({ ...written }, ctx) : written;
    const updated = await repository.update(tx, principal.team_id, String(existing.id), columns);
    await repository.writeChildren(tx, String(existing.id), attributes);
    const [row] = await repository.attachChildren(tx, [updated]);
    const record = serialize(def, row);
    await emit(tx, principal, event, record);
    return access.present(principal, row, record);
  }

  async function removeIn(tx: Transaction, principal: Principal, existing: Row): Promise<ResourceObject> {
    const issues = hooks.beforeRemove ? await hooks.beforeRemove(contextOf(tx, principal, { existing })) : [];
    if (issues.length) throw new ValidationError(issues);
    await announceCascade?.(tx, principal.team_id, [String(existing.id)]);
    await repository.remove(tx, principal.team_id, String(existing.id));
    const record = serialize(def, existing);
    await emit(tx, principal, 'deleted', record);
    return access.present(principal, existing, record);
  }

  /** What an action's `resource` does: the same writes, bound to the action's collection path. */
  const writesIn = (tx: Transaction, principal: Principal, where: Row = {}, parentRow?: Row): ResourceWrites => ({
    create: (attributes) => createIn(tx, principal, attributes, where, parentRow),
    async update(existing, attributes, event) {
      access.can(principal, 'update', existing);
      await access.admits(tx, principal, existing, 'update');
      return updateIn(tx, principal, existing, attributes, event);
    },
    async remove(existing) {
      access.can(principal, 'delete', existing);
      await access.admits(tx, principal, existing, 'delete');
      return removeIn(tx, principal, existing);
    },
    findWhere: (conditions, options) => repository.findAll(tx, access.scopeFor(principal, { ...conditions, ...where }), options?.forUpdate),
    serialize: (row) => access.present(principal, row),
    lock: (name) => repository.lock(tx, principal.team_id, name),
  });

  return { createIn, updateIn, removeIn, writesIn };
}
