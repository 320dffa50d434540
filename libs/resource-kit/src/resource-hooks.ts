import type { ValidationIssue } from '@firewatch/errors';
import type { Principal } from '@firewatch/auth';
import type { ResourceObject } from '@firewatch/jsonapi';
import type { Row, Transaction } from './resource-shapes.js';

/** Context handed to a resource's hooks. */
export interface HookContext<D = unknown> {
  principal: Principal;
  /** The record being updated or deleted; undefined on create. */
  existing?: Row;
  /**
   * The verb of an update through the HTTP route (undefined otherwise): a declaration
   * whose children attribute the reference merges on PATCH but replaces on PUT tells them apart.
   */
  method?: 'put' | 'patch';
  /** The parent record of a nested create. */
  parent?: Row;
  tx: Transaction;
  /** What the service gave its registry's modules (data-layer functions, a secret box, settings). */
  deps: D;
  /**
   * Which of `ids` (UUIDs as PostgreSQL writes them) name records of the registry's
   * declaration `name` that the caller sees: its team, visibility, record list and owner
   * groups, as `include` loads them. Read in `tx` and share-locked until it ends, so none
   * is deleted meanwhile. A write checks the ids it names with it (an incident's
   * `service_ids`), so that naming an id tells nothing of records the caller cannot see.
   */
  visibleIds(name: string, ids: readonly string[]): Promise<Set<string>>;
  /** A row as the registry's declaration `name` serialises it in its answers and events. */
  serializeAs(name: string, row: Row): ResourceObject;
  /**
   * Writes the event `<event>.<action>` of the registry's declaration `name` (e.g.
   * `environment.updated`) for `row`, serialised as `serializeAs` does, for the caller's
   * team and in `tx`: a record a hook changes beside its own is announced as a write of
   * that record would be, and only if the write commits.
   */
  announce(name: string, action: string, row: Row): Promise<void>;
}

/**
 * The points where a declaration takes part in the kit's pipeline, in the order they
 * run. A write runs in one transaction:
 *
 * | step | create | update | delete |
 * |---|---|---|---|
 * | 1 | body parsed by `create` (422) | record loaded and locked, permission on it (404/403) | record loaded and locked, permission on it (404/403) |
 * | 2 | permission, parent loaded (404) | body parsed by `update` (422) | |
 * | 3 | **prepare** | **prepare** | **beforeRemove** |
 * | 4 | unique values (kit), **defaults** | unique values, owner groups (kit) | cascades announced (kit) |
 * | 5 | owner groups (kit) | **validate** | row deleted |
 * | 6 | **validate** | slug, position (kit) | event `<event>.deleted` |
 * | 7 | limit (kit) | **toColumns** | |
 * | 8 | slug, position (kit) | row and children written | |
 * | 9 | **toColumns** | **expand**, then serialised (`computed`) | |
 * | 10 | row and children written | event `<event>.updated` (or the action's) | |
 * | 11 | **expand**, then serialised (`computed`) | answer (`writersOnly`) | |
 * | 12 | event `<event>.created` | | |
 * | 13 | answer (`writersOnly`), then **revealOnCreate** | | |
 *
 * Reads load rows (team, visibility, record list, owner groups), run **expand**, and
 * serialise. **beforeAccess** runs before all of it, in every operation. Hooks are
 * methods so that a declaration of any `D` is a declaration.
 */
export interface ResourceHooks<D = unknown> {
  /**
   * Runs first in every operation on the declaration's records: lists, gets, writes,
   * actions, includes of it and another write naming its ids (`visibleIds`), e.g. a
   * team's starting records made on its first request. `tx` is the operation's
   * transaction (writes, `visibleIds`); undefined on reads, which run in none: the hook
   * opens its own if it writes.
   */
  beforeAccess?(ctx: { principal: Principal; tx: Transaction | undefined; deps: D }): Promise<void>;
  /**
   * Rewrites the parsed attributes of a create or an update before anything else sees
   * them: e.g. legacy attributes mapped onto a children attribute. `ctx.existing`
   * (children attached) on update.
   */
  prepare?(attributes: Row, ctx: HookContext<D>): Promise<Row> | Row;
  /** Fills defaults on create (e.g. empty lists; the `position` key places a record last). */
  defaults?(attributes: Row, ctx: HookContext<D>): Promise<Row> | Row;
  /** Checks needing the database or several attributes; issues make a 422. */
  validate?(attributes: Row, ctx: HookContext<D>): Promise<ValidationIssue[]> | ValidationIssue[];
  /**
   * Maps validated attributes (after defaults and slug) to the columns written, on
   * create and update; e.g. encrypts a secret into another column. Default: as is.
   */
  toColumns?(attributes: Row, ctx: HookContext<D>): Promise<Row> | Row;
  /**
   * Adds to loaded rows (children attached) what responses show from other tables, e.g.
   * the names of a template's type and of its stages, for `computed` and children's
   * `present` to read. Runs wherever rows are loaded (lists, gets, the rows of writes,
   * cascades, includes, parents), in the operation's transaction when there is one.
   * `list` is set when the rows answer a list, with the names its `include` gave: an
   * attribute the reference shows on lists only when included need not be loaded otherwise.
   */
  expand?(rows: Row[], ctx: { tx: Transaction | undefined; deps: D; list?: { include: readonly string[] } }): Promise<void>;
  /**
   * Attributes shown in the create response only, never in events or later reads
   * (e.g. a generated secret). Receives the attributes after defaults and the stored row.
   */
  revealOnCreate?(attributes: Row, row: Row): Record<string, unknown>;
  /**
   * Runs in the delete's transaction before the row goes: issues make it a 422 (a record
   * that must stay, such as a team's default process); it may also clean up what hangs
   * on the record through `ctx.deps`. `ctx.existing` is the record.
   */
  beforeRemove?(ctx: HookContext<D>): Promise<ValidationIssue[]> | ValidationIssue[];
}
