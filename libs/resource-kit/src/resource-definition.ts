import type { z } from 'zod';
import type { PageOptions, ResourceObject, SortField } from '@firewatch/jsonapi';
import type { Permission, Principal } from '@firewatch/auth';
import type {
  ActionSpec,
  ChildSpec,
  CollectionRoute,
  LimitSpec,
  ParentSpec,
  RelationshipSpec,
  Row,
  SourceSpec,
  Transaction,
  Visibility,
} from './resource-shapes.js';
import type { ResourceHooks } from './resource-hooks.js';
import type { FilterSpec } from './slug-filters.js';

export type { Row, Transaction } from './resource-shapes.js';
export type { HookContext, ResourceHooks } from './resource-hooks.js';
/** The CRUD operations a declaration may serve (`operations`). */
export type Operation = 'list' | 'get' | 'create' | 'update' | 'delete';

export type { FilterSpec, SlugOfFilter } from './slug-filters.js';

/**
 * Fetches the resources to put in `included` for one include name; `deps` are the
 * service's. What it loads is read on the caller's behalf: records of another resource
 * need that resource's read permission (`authorize`), as a direct read would.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a loader of any service's deps, as AnyResourceDefinition
export type IncludeLoader<D = any> = (records: Row[], ctx: IncludeContext<D>) => Promise<ResourceObject[]>;

/** What an include loader is handed. */
export interface IncludeContext<D> {
  principal: Principal;
  tx: Transaction | undefined;
  deps: D;
  /** A row as the declaration of that name in the service's registry serialises it (a panel of a dashboard). */
  serializeAs(name: string, row: Row): ResourceObject;
  /**
   * The `permission` of the registry's declaration `name`: a loader that reads records of
   * another resource authorizes the read with it, as a direct read of that resource would.
   */
  permissionOf(name: string): ResourceDefinition['permission'];
}

/**
 * Everything the kit needs to know about a resource. One declaration drives its
 * routes, validation, persistence, serialisation, events and OpenAPI entry. Hooks are
 * methods so that a declaration of any `D` is a declaration (the kit passes `deps`).
 */
export interface ResourceDefinition<D = unknown> {
  /** JSON:API type, e.g. `environments`. */
  type: string;
  /**
   * The declaration's name where its `type` is not unique in the service (override shifts
   * and computed shifts are both JSON:API `shifts`): OpenAPI component names, operationIds
   * and `cascades` use it. Default: `type`.
   */
  name?: string;
  /** Items live at `{path}/{id}`; so does the collection unless `collections` is given. */
  path: string;
  /** Collection paths when they are not `path`: nested (`{param}` bound by `parent`) or several. */
  collections?: readonly CollectionRoute[];
  parent?: ParentSpec<D>;
  /** Absent for a computed resource (`source`). */
  table?: string;
  /** Singular event stem: `environment` gives `environment.created|updated|deleted`. */
  event?: string;
  /**
   * What every operation needs (authorize's `Permission` less what the call supplies).
   * `adminOnly`, `unrestricted` and `allScope` hold for each operation, reads included,
   * and the OpenAPI document states them; `unrestricted` is judged before any lookup.
   */
  permission: Pick<Permission, 'scope' | 'side' | 'adminOnly' | 'unrestricted' | 'allScope'>;
  /** Strict schemas of writable attributes. */
  create?: z.ZodObject;
  update?: z.ZodObject;
  /** Response attribute names in order; `created_at`/`updated_at` are appended unless `timestamps: false`. */
  attributes: readonly string[];
  timestamps?: boolean;
  /** OpenAPI schemas of response attributes the write schemas do not describe. */
  attributeSchemas?: Record<string, Record<string, unknown>>;
  /** Columns holding JSON (arrays/objects): serialised on write. */
  jsonColumns?: readonly string[];
  /**
   * Generates a per-team unique slug from the attribute `from` (`name`, `name-2`, ...);
   * `{id}` then accepts the slug. `hidden(row)`: the record is hidden from some of its team
   * (a private incident); its slug is then an `unlistedSlug`, off the sequence every create
   * probes, so that no create tells a hidden record holds a name, and a record that becomes
   * hidden is given one. Such a declaration takes no `slug` in its write schemas. With
   * `ownerGroups`, a group key may not choose a slug (403 `group_scoped`; its creates get
   * an unlisted one), nor may a record-scoped key change one (403 `record_scoped`).
   * `reserved`: slugs never generated (`properties` under `/v1/teams`, a path another
   * service serves there, which the record's `{id}` could never reach): the sequence goes
   * on to `properties-2`.
   */
  slug?: { from: string; hidden?: (row: Row) => boolean; reserved?: readonly string[] };
  filters?: Record<string, FilterSpec>;
  sorts?: readonly string[];
  defaultSort?: SortField[];
  includes?: Record<string, IncludeLoader<D>>;
  relationships?: Record<string, RelationshipSpec>;
  children?: Record<string, ChildSpec>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each action's body type is its own; the list holds any
  actions?: readonly ActionSpec<D, any>[];
  limit?: LimitSpec<D>;
  /**
   * The records are ordered by an integer `position` column: a create that leaves it out
   * (or null), and an update that sets it to null, puts the record last, one past the
   * highest of the team's (or of those with the same `per` column, e.g. the parent's),
   * at most `max`. Not locked: two records created at once may share a position, and
   * lists order ties by creation.
   */
  position?: { per?: string; max?: number };
  /** Narrows list, get, update and delete alike (e.g. private dashboards). */
  visibility?: Visibility;
  /**
   * A JSON array column of owner group ids: group-scoped keys see only their groups'
   * records. `writers: 'members'`: only admins (on the permission's side) and
   * group-scoped keys holding one of a record's owner groups may create, update or delete
   * it; others get 403 `not_granted`. A team's user members are not among them: any
   * user-role credential may change a team's members (docs/security.md). Default `team`:
   * whoever the permission lets. Its `unique` keys must be per owner set (checked at
   * start-up by constraint name, `*owner_set*`), so that a group key's conflicts are with
   * records it sees.
   */
  ownerGroups?: { column: string; writers?: 'team' | 'members' };
  /**
   * Response attributes answered only to a caller who may update the record (permission,
   * record list, owner groups and their `writers`) and left out for others, e.g. where a
   * secret lives in a vault. Events carry them. Not combined with `visibility`.
   */
  writersOnly?: readonly string[];
  source?: SourceSpec<D>;
  page?: PageOptions;
  operations?: readonly Operation[];
  /** The reference's update verbs; default both. */
  updateMethods?: readonly ('put' | 'patch')[];
  /** What delete answers: the deleted record (default) or an empty 200 body. */
  deleteAnswer?: 'record' | 'empty';
  /**
   * Boolean query flags the item get accepts (`true`/`false`), by name with their
   * description, that do not change its answer: the reference's, for what the kit always
   * does (alert routes' `show_nested_ids`: children are always shown with their ids).
   */
  getFlags?: Readonly<Record<string, string>>;
  /**
   * Maps unique constraints to a 409 naming the attribute. A record-scoped key may not
   * change such an attribute of a record (nor the slug, nor, with `ownerGroups`, the owner
   * groups): 403 `record_scoped`, as a record it does not list may hold the value.
   */
  unique?: Record<string, { pointer: string; detail: string }>;
  /**
   * Rows of other declarations the database deletes with this record (a foreign key's ON
   * DELETE CASCADE on `column`): the kit announces each with its own `<event>.deleted`,
   * theirs in turn first, in the delete's transaction. `resource` names the dependent
   * declaration in the service's registry.
   */
  cascades?: readonly { resource: string; column: string }[];
  /** The declaration's part in the write and read pipeline, in the order documented on {@link ResourceHooks}. */
  hooks?: ResourceHooks<D>;
  /** Response attributes computed from the stored row rather than read from a column of that name (e.g. a masked secret). */
  computed?: Record<string, (row: Row) => unknown>;
  summary?: { singular: string; plural: string };
  /** What the OpenAPI list and create operations say first about the collection (e.g. the records a team starts with). */
  description?: string;
}

/** A declaration whatever its deps, for lists of declarations and references between them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- deps are contravariant: only `any` admits every service's
export type AnyResourceDefinition = ResourceDefinition<any>;

/** Every CRUD operation: what a stored resource serves unless it says otherwise. */
export const ALL_OPERATIONS: readonly Operation[] = ['list', 'get', 'create', 'update', 'delete'];

/** The operations a declaration serves. */
export function operationsOf(def: AnyResourceDefinition): Set<Operation> {
  return new Set(def.operations ?? (def.source ? ['list'] : ALL_OPERATIONS));
}

/** What names a declaration among its service's others: `name`, else `type`. */
export function nameOf(def: AnyResourceDefinition): string {
  return def.name ?? def.type;
}

/** Declares a resource; a typed identity function so declarations read as data. */
export function defineResource<D = unknown>(definition: ResourceDefinition<D>): ResourceDefinition<D> {
  return definition;
}
