import type { z } from 'zod';
import type { FilterColumns } from '@firewatch/db';
import type { PageOptions, ResourceObject, SortField } from '@firewatch/jsonapi';
import type { ValidationIssue } from '@firewatch/errors';
import type { Principal } from '@firewatch/auth';

export type Row = Record<string, unknown>;
export type Operation = 'list' | 'get' | 'create' | 'update' | 'delete';

/** A list filter: its kind, and the column(s) it reads when they differ from its name. */
/** How a filter field reads the table (libs/db applies it, the same for every list). */
export type FilterSpec = FilterColumns;

/** Context handed to a resource's hooks. */
export interface HookContext {
  principal: Principal;
  /** The record being updated or deleted; undefined on create. */
  existing?: Row;
  /** Runs a query inside the operation's transaction (opaque to domain code). */
  tx: unknown;
}

/** Fetches the resources to put in `included` for one include name. */
export type IncludeLoader = (records: Row[], ctx: { principal: Principal; tx: unknown }) => Promise<ResourceObject[]>;

/**
 * Everything the kit needs to know about a resource. One declaration drives its
 * routes, validation, persistence, serialisation, events and OpenAPI entry.
 */
export interface ResourceDefinition<C extends z.ZodObject = z.ZodObject, U extends z.ZodObject = z.ZodObject> {
  /** JSON:API type, e.g. `environments`. */
  type: string;
  /** Collection path, e.g. `/v1/environments`. */
  path: string;
  table: string;
  /** Singular event stem: `environment` gives `environment.created|updated|deleted`. */
  event: string;
  permission: { scope: string | null; side: 'ir' | 'oc' };
  /** Strict schemas of writable attributes. */
  create: C;
  update: U;
  /** Response attribute names in order; `created_at`/`updated_at` are appended. */
  attributes: readonly string[];
  /** Columns holding JSON (arrays/objects): serialised on write. */
  jsonColumns?: readonly string[];
  /** Generates a per-team unique slug from this attribute; `{id}` then accepts the slug. */
  slug?: { from: string };
  filters?: Record<string, FilterSpec>;
  sorts?: readonly string[];
  defaultSort?: SortField[];
  includes?: Record<string, IncludeLoader>;
  page?: PageOptions;
  operations?: readonly Operation[];
  /** Maps unique constraints to a 409 naming the attribute. */
  unique?: Record<string, { pointer: string; detail: string }>;
  /** Extra checks needing the database or several attributes; return issues for a 422. */
  validate?: (attributes: Row, ctx: HookContext) => Promise<ValidationIssue[]> | ValidationIssue[];
  /** Fills defaults on create (e.g. the next position). */
  defaults?: (attributes: Row, ctx: HookContext) => Promise<Row> | Row;
  /**
   * Maps validated attributes (after defaults and slug) to the columns written, on
   * create and update; e.g. encrypts a secret into another column. Default: as is.
   */
  toColumns?: (attributes: Row, ctx: HookContext) => Promise<Row> | Row;
  /** Response attributes computed from the stored row rather than read from a column of that name (e.g. a masked secret). */
  computed?: Record<string, (row: Row) => unknown>;
  /**
   * Attributes shown in the create response only, never in events or later reads
   * (e.g. a generated secret). Receives the attributes after defaults and the stored row.
   */
  revealOnCreate?: (attributes: Row, row: Row) => Record<string, unknown>;
  summary?: { singular: string; plural: string };
}

export const ALL_OPERATIONS: readonly Operation[] = ['list', 'get', 'create', 'update', 'delete'];

/** Declares a resource; a typed identity function so declarations read as data. */
export function defineResource<C extends z.ZodObject, U extends z.ZodObject>(
  definition: ResourceDefinition<C, U>,
): ResourceDefinition<C, U> {
  return definition;
}
