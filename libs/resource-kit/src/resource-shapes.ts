import type { z } from 'zod';
import type { Knex } from 'knex';
import type { Capability, Principal } from '@firewatch/auth';
import type { Page, ResourceObject } from '@firewatch/jsonapi';

export type Row = Record<string, unknown>;

/**
 * The transaction an operation runs in. Hooks hand it to the data-layer functions
 * they were given (through `deps`); domain code never builds queries with it.
 */
export type Transaction = Knex.Transaction;

/** Writes an event into the outbox inside the given transaction. */
export type EventWriter = (tx: Transaction, event: { type: string; team_id: number; data: unknown }) => Promise<unknown>;

/** A further collection path of a resource; `{param}`s in it are bound by `parent`. */
export interface CollectionRoute {
  path: string;
  /** Column values the path implies: set on create, matched on list (e.g. a catalog). */
  fixed?: Row;
  /** Added to this path's OpenAPI summaries, e.g. `services catalog`. */
  summary?: string;
}

/**
 * The record a nested collection hangs under (`/v1/schedules/{schedule_id}/...`). It is
 * loaded through its own declaration, so a parent of another team, hidden from the
 * caller or outside a record-scoped key is a 404, and its id is written to `column`.
 * A parent that is no declaration of the service (on-call's users, a read model of
 * another service's records) is found by `load` instead: {@link LoadedParent}.
 */
export type ParentSpec<D = unknown> = DeclaredParent | LoadedParent<D>;

/** A parent that is a declaration of the registry. */
export interface DeclaredParent {
  /** The parent's declaration, by name (`name`, else `type`) in the service's registry. */
  resource: string;
  /** The path parameter naming the parent (id, or slug where the parent has one). */
  param: string;
  /** The column of this resource holding the parent's id. */
  column: string;
}

/**
 * A parent the service finds itself (`/v1/users/{user_id}/email_addresses`, users being
 * auth's): `load` answers the parent row (its `id` is written to `column`) when the
 * caller may `need` it, else undefined, which is the 404 a hidden declared parent gets,
 * for the collection and for every item under it alike. A method, so a declaration of any
 * `D` is a declaration.
 */
export interface LoadedParent<D = unknown> {
  param: string;
  column: string;
  /** What the parent is, for messages and OpenAPI (`user`), and how its param is written (`integer id`). */
  noun: string;
  idFormat: string;
  /**
   * `of`: `collection` for a list or create under the parent (a create may lock the
   * parent against its deletion); `item` when the parent of a record already found (and,
   * for a write, locked) is checked.
   */
  load(ctx: {
    tx: Transaction | undefined;
    principal: Principal;
    deps: D;
    id: string;
    need: 'read' | 'update';
    of: 'collection' | 'item';
  }): Promise<Row | undefined>;
}

/** The declaration a parent names; undefined for a loaded one. */
export function parentDeclaration(parent: ParentSpec<never> | undefined): string | undefined {
  return parent && 'resource' in parent ? parent.resource : undefined;
}

/**
 * Rows owned by the record, in their own table, written through one attribute.
 * `replace`: the sent list is the whole set; an entry with the `id` of a current row
 * updates it, an entry equal to a current row keeps that row (and its id), the rest are
 * inserted, and rows not kept are deleted. `by_id`: an entry with an `id` changes that
 * row (`_destroy: true` deletes it), one without adds a row, the others stay.
 * The table has `id`, the key column, the columns, `created_at`/`updated_at`, and an
 * integer `position` the kit keeps in the order entries were sent (replace) or added
 * (by_id), unless `position` is one of the columns.
 */
export interface ChildSpec {
  table: string;
  /** The column holding the owner's id. */
  key: string;
  mode: 'replace' | 'by_id';
  /** The columns written from an entry and returned with each row. */
  columns: readonly string[];
  jsonColumns?: readonly string[];
  /** The request attribute carrying the entries, when not the response attribute's name. */
  input?: string;
  /** Order of the rows in responses; default `position`. */
  orderBy?: string;
  /** The response shape of one row; default `{ id, ...columns }`. */
  present?(row: Row): unknown;
  /**
   * The rows are records of this declaration of the registry (e.g. a rotation's members,
   * written with the rotation): each row a create writes is announced as that
   * declaration's `<event>.created`, after the owner's. Create-only: the update schema may
   * not carry the attribute.
   */
  announce?: string;
}

/** What an action's `run` receives; `B` is its parsed body. */
export interface ActionContext<D, B = unknown> {
  principal: Principal;
  tx: Transaction;
  deps: D;
  /** The request body, parsed by the action's `body` schema. */
  body: B;
  /** The path parameters (a nested collection's parent param, the item's `id`). */
  params: Record<string, string>;
  /** Collection actions of a nested resource: the parent, loaded as for a list (404 if hidden). */
  parent?: Row;
  /** Item actions: the record, loaded as `get` would and locked for the transaction. */
  record?: Row;
  /** The resource's own writes inside this transaction, with their checks and events. */
  resource: ResourceWrites;
}

/** Create, update and delete of the resource inside an action's transaction. */
export interface ResourceWrites {
  create(attributes: Row): Promise<ResourceObject>;
  /** `event` names the action in the event type (`mitigated` gives `incident.mitigated`); default `updated`. */
  update(existing: Row, attributes: Row, event?: string): Promise<ResourceObject>;
  remove(existing: Row): Promise<ResourceObject>;
  /**
   * Rows of the caller's team (and visibility, and the action's collection path) with
   * these column values; an array value matches any of its elements. `forUpdate` locks
   * them until the action ends, so a concurrent action waits rather than overwrites.
   */
  findWhere(where: Row, options?: { forUpdate?: boolean }): Promise<Row[]>;
  /**
   * Waits for, then holds until the action ends, a lock named `name` within this
   * resource and team: e.g. bulk upserts of one team take turns, so two batches
   * creating the same external_id cannot both decide to create it.
   */
  lock(name: string): Promise<void>;
  serialize(row: Row): ResourceObject;
}

/** A document an action answers with; `undefined` sends an empty body. */
export interface ActionResult {
  status?: number;
  document?: unknown;
  /** The document carries a secret shown this once (a rotated secret): sent with `Cache-Control: no-store` and no ETag. */
  secret?: boolean;
}

/**
 * An operation beyond CRUD: `POST /v1/functionalities/bulk_upsert`, `POST .../{id}/deliver`.
 * Declare it with `defineAction` so `run` sees the body its schema parses.
 */
export interface ActionSpec<D = unknown, B = unknown> {
  /** Names the operation (`bulk_upsert` gives operationId `bulk_upsert_functionalities`). */
  name: string;
  on: 'collection' | 'item';
  method?: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** The segment after the collection or item path; default `name`. */
  path?: string;
  /** Capabilities needed, team-wide for collection actions, on the record for item actions. */
  capabilities: readonly Capability[];
  /** Validates the raw JSON body (422 with pointers); without it the body is not read. */
  body?: z.ZodType<B>;
  /**
   * A record-scoped key meets a 404 here before anything else is judged, so that it
   * cannot learn from the answers which records exist (bulk upsert by external_id).
   */
  hiddenFromRecordKeys?: boolean;
  /** OpenAPI: the success response's schema and a line of description. */
  response?: { status?: number; schema?: Record<string, unknown>; description?: string };
  summary?: string;
  run(ctx: ActionContext<D, B>): Promise<ActionResult>;
}

/** Declares an action; typed so that `run` receives what `body` parses. */
export function defineAction<D = unknown, B = unknown>(action: ActionSpec<D, B>): ActionSpec<D, B> {
  return action;
}

/**
 * At most `max` records per team, or per value of `per` (e.g. per catalog). Held under
 * races: creates take a transaction-scoped advisory lock on the counted set first.
 */
export interface LimitSpec<D = unknown> {
  max: number | ((deps: D) => number);
  per?: string;
  /** The 422's detail; `{max}` is replaced. */
  detail: string;
}

/** One way a row may be visible; a narrowing admits a row when any clause does. */
export type VisibilityClause =
  | { column: string; equals: string | number | boolean | null }
  | { column: string; in: readonly (string | number)[] }
  /** A JSON array column sharing at least one element with `values`. */
  | { column: string; overlaps: readonly string[] }
  /** A row of `table` whose `key` is this record's id and that matches `where`. */
  | { granted: { table: string; key: string; where: Row } };

/**
 * The rows a principal may act on within its team; null: all of them. Asked with
 * `read` for what it may see (anything else is a 404), and with `update` or `delete`
 * for what it may change among those (a visible row outside is a 403), e.g. a
 * dashboard its owner shared read-only.
 */
export type Visibility = (principal: Principal, action: Capability) => readonly VisibilityClause[] | null;

/** A read-only collection computed rather than stored (`GET /v1/shifts`). */
export interface SourceSpec<D = unknown> {
  /** The extra query parameters it reads, validated (422/400 on failure). */
  params: z.ZodObject;
  /** The list operation's OpenAPI description: what it computes and how far one request may go. */
  description?: string;
  list(ctx: {
    principal: Principal;
    deps: D;
    params: Row;
    page: Page;
    parent?: Row;
  }): Promise<{ rows: Row[]; meta: Record<string, unknown> }>;
}

/** A `relationships` member: the related record's type and the column(s) holding its id(s). */
export interface RelationshipSpec {
  type: string;
  column: string;
  /** The column holds an array of ids (to-many). */
  many?: boolean;
  /**
   * Its declaration's name in the service's registry, when it lives in the same
   * database: `include=<name>` then loads the related records through it with no loader
   * to write, as a read of that resource (its permission: a caller that may not read it
   * gets 403; team, visibility, lists).
   */
  resource?: string;
}
