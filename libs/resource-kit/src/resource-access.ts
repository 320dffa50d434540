import { authorize, type Capability, type Principal } from '@firewatch/auth';
import { ForbiddenError, HttpError, NotFoundError } from '@firewatch/errors';
import type { ResourceObject } from '@firewatch/jsonapi';
import type { AnyResourceDefinition } from './resource-definition.js';
import type { CollectionRoute, Row, Transaction, VisibilityClause } from './resource-shapes.js';
import type { ResourceRepository } from './resource.repository.js';
import type { RowScope } from './row-scope.js';
import { serialize } from './serialize.js';

/** Where a collection request came in: its route and path parameters. */
export interface CollectionCall {
  route: CollectionRoute;
  params: Record<string, string>;
}

/** How a parent is needed: seen (listing its children) or changed (writing them). */
export type ParentNeed = 'read' | 'update';

/** A parent's service as its children use it. */
export interface ParentAccess {
  /** `of`: whether a collection request names the parent or a record under it is being reached. */
  visible(tx: Transaction | undefined, principal: Principal, idOrSlug: string, need?: ParentNeed, of?: 'collection' | 'item'): Promise<Row>;
}

/**
 * Who may touch which rows of a resource: the one place its permission, record list,
 * owner groups, visibility and parent are applied, for reads and writes alike.
 */
export function createResourceAccess(def: AnyResourceDefinition, repository: ResourceRepository, parent?: ParentAccess) {
  const noun = def.summary?.singular ?? def.type.replace(/_/g, ' ').replace(/s$/, '');
  const ownerGroupsOf = (row: Row) => (def.ownerGroups ? ((row[def.ownerGroups.column] as string[] | null) ?? []) : undefined);

  /** `ownerGroups.writers: 'members'`: writing a row takes an admin or a member of one of its owner groups. */
  function checkWriter(principal: Principal, row: Row): void {
    if (def.ownerGroups?.writers !== 'members') return;
    const role = def.permission.side === 'oc' ? principal.on_call_role : principal.role;
    const mine = principal.group_ids;
    if (role === 'admin' || (mine !== null && ownerGroupsOf(row)!.some((g) => mine.includes(g)))) return;
    throw new ForbiddenError(`Only admins and members of one of its owner groups may write this ${noun}.`, { code: 'not_granted' });
  }

  /**
   * Capability, role, scope, record list and owner groups (authorize), for the team or
   * one row; writing a row (or the row a create is about to make), also its writers.
   */
  function can(principal: Principal, action: Capability, row?: Row): void {
    authorize(principal, {
      ...def.permission,
      action,
      recordId: row?.id === undefined ? undefined : String(row.id),
      ownerGroupIds: row && ownerGroupsOf(row),
    });
    if (row && action !== 'read') checkWriter(principal, row);
  }

  /** Whether the caller may update `row`, as far as the row alone tells (no visibility). */
  function mayUpdate(principal: Principal, row: Row): boolean {
    try {
      can(principal, 'update', row);
      return true;
    } catch (err) {
      if (err instanceof HttpError) return false;
      throw err;
    }
  }

  /** `row` as answered to this caller: `writersOnly` attributes left out unless it may update the row. */
  function present(principal: Principal, row: Row, record: ResourceObject = serialize(def, row)): ResourceObject {
    if (!def.writersOnly?.length || mayUpdate(principal, row)) return record;
    const hidden = new Set(def.writersOnly);
    return { ...record, attributes: Object.fromEntries(Object.entries(record.attributes).filter(([name]) => !hidden.has(name))) };
  }

  function scopeFor(principal: Principal, where?: Row, action: Capability = 'read'): RowScope {
    const narrowings: (readonly VisibilityClause[])[] = [];
    const visible = def.visibility?.(principal, action);
    if (visible) narrowings.push(visible);
    if (def.ownerGroups && principal.group_ids !== null)
      narrowings.push([{ column: def.ownerGroups.column, overlaps: principal.group_ids }]);
    return { teamId: principal.team_id, where, recordIds: principal.record_ids, narrowings };
  }

  // A function, not a closure made on every load: only a miss builds the error.
  const missing = (idOrSlug: string) => new NotFoundError(`No ${noun} with id${def.slug ? ' or slug' : ''} "${idOrSlug}".`);

  /** 403 `not_granted` when visibility lets the caller see `row` but not `action` it. */
  async function admits(tx: Transaction | undefined, principal: Principal, row: Row, action: Capability): Promise<void> {
    if (action === 'read' || !def.visibility?.(principal, action)) return;
    if (await repository.find(tx, scopeFor(principal, undefined, action), String(row.id))) return;
    throw new ForbiddenError(`You may see this ${noun} but not ${action} it.`, { code: 'not_granted' });
  }

  /**
   * The record as the caller may `action` it: a 404 when it is another team's, hidden, or
   * its parent is (writing a child needs the parent's update visibility); a 403 when seen
   * but not permitted.
   */
  async function load(
    tx: Transaction | undefined,
    principal: Principal,
    idOrSlug: string,
    action: Capability,
    forUpdate = false,
  ): Promise<Row> {
    // An unrestricted permission does not depend on the row: refuse before looking, so a
    // refused caller learns nothing of which ids exist (a record key gets 403, not 404).
    if (def.permission.unrestricted) can(principal, action);
    const row = await repository.find(tx, scopeFor(principal), idOrSlug, forUpdate);
    if (!row) throw missing(idOrSlug);
    if (def.parent && parent) {
      // A hidden parent hides its child with the child's own 404: naming the parent would
      // tell that the child exists, and whose it is.
      await parent
        .visible(tx, principal, String(row[def.parent.column]), action === 'read' ? 'read' : 'update', 'item')
        .catch((err: unknown) => {
          throw err instanceof NotFoundError ? missing(idOrSlug) : err;
        });
    }
    can(principal, action, row);
    // A read is admitted by the scope it was loaded in: no await for the hot path's lookup.
    if (action !== 'read') await admits(tx, principal, row, action);
    return row;
  }

  /** The parent the collection path names (a 404 when hidden); none on a path that names none (`/v1/shifts` beside `/v1/schedules/{id}/shifts`). */
  async function parentOf(
    tx: Transaction | undefined,
    principal: Principal,
    call: CollectionCall,
    need: ParentNeed,
  ): Promise<Row | undefined> {
    if (!def.parent || !parent || !call.route.path.includes(`{${def.parent.param}}`)) return undefined;
    return parent.visible(tx, principal, call.params[def.parent.param] ?? '', need, 'collection');
  }

  /** The column values a collection path implies: its fixed ones and the parent's id. */
  const whereOf = (call: CollectionCall, parentRow?: Row): Row => ({
    ...(call.route.fixed ?? {}),
    ...(def.parent && parentRow ? { [def.parent.column]: parentRow.id } : {}),
  });

  return { can, present, scopeFor, admits, load, parentOf, whereOf };
}

export type ResourceAccess = ReturnType<typeof createResourceAccess>;
