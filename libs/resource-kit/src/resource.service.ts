import type { Principal } from '@firewatch/auth';
import { NotFoundError, ValidationError } from '@firewatch/errors';
import {
  assertDocumentId,
  assertIfMatch,
  singleDocument,
  zodIssuesToValidation,
  type EntityTagCondition,
  type ListQuery,
  type Page,
  type ResourceObject,
} from '@firewatch/jsonapi';
import type { AnyResourceDefinition } from './resource-definition.js';
import type { ActionSpec, EventWriter, Row, Transaction } from './resource-shapes.js';
import type { ResourceRepository } from './resource.repository.js';
import { createResourceAccess, type CollectionCall, type ParentAccess, type ParentNeed } from './resource-access.js';
import { createResourceWrites, retryingSlugRaces } from './resource-writes.js';
import { createIncluder, type Related } from './includes.js';
import type { CascadeAnnouncer } from './cascade.js';
import { isUuid } from './slug.js';

export type { CollectionCall } from './resource-access.js';

/** What a resource's service is built from. */
export interface ResourceServiceDeps {
  repository: ResourceRepository;
  writeEvent: EventWriter;
  /** Handed to the declaration's hooks, actions and source. */
  deps: unknown;
  /** The parent's service, for nested resources. */
  parent?: ParentAccess;
  /** Services of the related declarations `include` loads through. */
  related: Related;
  /** The service's declarations by name (its registry), for include loaders. */
  declaration(name: string): AnyResourceDefinition;
  /** Announces the rows `cascades` takes with a deleted record. */
  announceCascade?: CascadeAnnouncer;
  /** The registry's declarations by name, as the ids a write names are checked against them (`HookContext.visibleIds`). */
  referenced(name: string): ReferencedAccess;
}

/** Another declaration's records, as a write naming some of them reaches them. */
export interface ReferencedAccess {
  visibleIds(tx: Transaction, principal: Principal, ids: readonly string[]): Promise<Set<string>>;
}

/** A record with its `included` resources. */
export interface Loaded {
  record: ResourceObject;
  included: ResourceObject[];
}

function parseBody(action: ActionSpec<unknown>, raw: unknown): unknown {
  if (!action.body) return undefined;
  const parsed = action.body.safeParse(raw);
  if (!parsed.success) throw new ValidationError(zodIssuesToValidation(parsed.error.issues, ''));
  return parsed.data;
}

/** The use cases of a declared resource: authorisation, rules, persistence and events. */
export function createResourceService(def: AnyResourceDefinition, options: ResourceServiceDeps) {
  const { repository, writeEvent, deps, parent, related, declaration, announceCascade, referenced } = options;
  const access = createResourceAccess(def, repository, parent);
  const visibleIdsOf = (tx: Transaction, principal: Principal, name: string, ids: readonly string[]) =>
    referenced(name).visibleIds(tx, principal, ids);
  const { createIn, updateIn, removeIn, writesIn } = createResourceWrites(def, {
    repository,
    writeEvent,
    deps,
    access,
    announceCascade,
    visibleIdsOf,
    declaration,
  });
  const included = createIncluder(def, related, deps, declaration);
  // Not async: without a hook it returns nothing, and the item GET, the hot read, skips its await.
  const beforeAccess = (tx: Transaction | undefined, principal: Principal): Promise<void> | void =>
    def.hooks?.beforeAccess?.({ principal, tx, deps });
  // `If-Match` is judged against the record as a GET answers this caller, once it is locked:
  // two writers holding the same tag cannot both pass.
  const preconditioned = (principal: Principal, locked: Row, ifMatch: EntityTagCondition | undefined) => {
    assertIfMatch(ifMatch, singleDocument(access.present(principal, locked)));
    return locked;
  };

  return {
    definition: def,

    /** The record if the caller may see it (and, with `update`, change what hangs under it), else 404/403. */
    async visible(tx: Transaction | undefined, principal: Principal, idOrSlug: string, need: ParentNeed = 'read'): Promise<Row> {
      await beforeAccess(tx, principal);
      const row = await access.load(tx, principal, idOrSlug, 'read');
      await access.admits(tx, principal, row, need);
      return row;
    },

    /**
     * The records with these ids the caller may see (for `include` from another resource),
     * as a read of this resource answers them (`writersOnly` applied). An include is a read:
     * a caller that may not read the resource (its scope, role or capability) gets the 403
     * a direct read gets, whether or not any id is given.
     */
    async visibleByIds(principal: Principal, ids: readonly string[]): Promise<ResourceObject[]> {
      access.can(principal, 'read');
      await beforeAccess(undefined, principal);
      const rows = ids.length ? await repository.findAll(undefined, { ...access.scopeFor(principal), ids }) : [];
      return rows.map((r) => access.present(principal, r));
    },

    /**
     * Which of `ids` name records the caller sees (as `visibleByIds`, without the
     * permission: naming a record in a write reads nothing of it), share-locked until `tx`
     * ends. Not a UUID: no record.
     */
    async visibleIds(tx: Transaction, principal: Principal, ids: readonly string[]): Promise<Set<string>> {
      await beforeAccess(tx, principal);
      const wanted = [...new Set(ids)].filter(isUuid);
      return wanted.length ? repository.idsForShare(tx, { ...access.scopeFor(principal), ids: wanted }) : new Set();
    },

    async list(principal: Principal, query: ListQuery, call: CollectionCall) {
      access.can(principal, 'read');
      await beforeAccess(undefined, principal);
      const parentRow = await access.parentOf(undefined, principal, call, 'read');
      const { rows, ...found } = await repository.list(access.scopeFor(principal, access.whereOf(call, parentRow)), query);
      return { records: rows.map((r) => access.present(principal, r)), found, included: await included(rows, query.include, principal) };
    },

    async get(principal: Principal, idOrSlug: string, include: string[] = []): Promise<Loaded> {
      const gate = beforeAccess(undefined, principal);
      if (gate) await gate;
      const row = await access.load(undefined, principal, idOrSlug, 'read');
      return { record: access.present(principal, row), included: include.length ? await included([row], include, principal) : [] };
    },

    async create(principal: Principal, attributes: Row, call: CollectionCall): Promise<ResourceObject> {
      access.can(principal, 'create');
      return retryingSlugRaces(def, () =>
        repository.transaction(async (tx) => {
          await beforeAccess(tx, principal);
          const parentRow = await access.parentOf(tx, principal, call, 'update');
          return createIn(tx, principal, attributes, access.whereOf(call, parentRow), parentRow);
        }),
      );
    },

    /**
     * `readAttributes` parses the request body once the record is known to exist and be
     * the caller's, so an unknown id is a 404 before the body is judged; it receives the
     * record, whose id (and slug) a `data.id` in the body must name. A stale `ifMatch` is a
     * 412 before the body is judged.
     */
    async update(
      principal: Principal,
      idOrSlug: string,
      readAttributes: (existing: Row) => Row,
      ifMatch?: EntityTagCondition,
      method?: 'put' | 'patch',
    ): Promise<ResourceObject> {
      return repository.transaction(async (tx) => {
        await beforeAccess(tx, principal);
        const existing = preconditioned(principal, await access.load(tx, principal, idOrSlug, 'update', true), ifMatch);
        return updateIn(tx, principal, existing, readAttributes(existing), 'updated', method);
      });
    },

    async remove(principal: Principal, idOrSlug: string, ifMatch?: EntityTagCondition): Promise<ResourceObject> {
      return repository.transaction(async (tx) => {
        await beforeAccess(tx, principal);
        return removeIn(tx, principal, preconditioned(principal, await access.load(tx, principal, idOrSlug, 'delete', true), ifMatch));
      });
    },

    /**
     * Runs an action in one transaction. The record (item actions; locked unless the
     * action only reads) or the parent (nested collections) is found first, so an unknown
     * id is a 404 before the body is judged; a body's `data.id` must name the record. An item
     * action that writes judges `ifMatch` on the locked record.
     */
    async act(
      action: ActionSpec<unknown>,
      principal: Principal,
      rawBody: unknown,
      call: CollectionCall,
      idOrSlug?: string,
      ifMatch?: EntityTagCondition,
    ) {
      if (action.hiddenFromRecordKeys && principal.record_ids !== null) throw new NotFoundError();
      const [first, ...rest] = action.capabilities;
      if (idOrSlug === undefined) for (const c of action.capabilities) access.can(principal, c);
      return retryingSlugRaces(def, () =>
        repository.transaction(async (tx) => {
          await beforeAccess(tx, principal);
          let record: Row | undefined;
          let parentRow: Row | undefined;
          if (idOrSlug !== undefined) {
            // A read-only action (a preview) must not hold up the record's writers.
            const writes = action.capabilities.some((c) => c !== 'read');
            record = await access.load(tx, principal, idOrSlug, first ?? 'read', writes);
            for (const c of rest) {
              access.can(principal, c, record);
              await access.admits(tx, principal, record, c);
            }
            if (writes) preconditioned(principal, record, ifMatch);
            const bodyId = (rawBody as { data?: { id?: unknown } } | undefined)?.data?.id;
            if (bodyId !== undefined)
              assertDocumentId(bodyId, [idOrSlug, String(record.id), ...(typeof record.slug === 'string' ? [record.slug] : [])]);
          } else {
            parentRow = await access.parentOf(tx, principal, call, 'update');
          }
          const body = parseBody(action, rawBody);
          const resource = writesIn(tx, principal, idOrSlug === undefined ? access.whereOf(call, parentRow) : {}, parentRow);
          return action.run({ principal, tx, deps, body, params: call.params, parent: parentRow, record, resource });
        }),
      );
    },

    /** A computed collection: the source lists its rows from validated parameters, with what `include` names. */
    async computed(principal: Principal, params: Row, page: Page, call: CollectionCall, include: readonly string[] = []) {
      access.can(principal, 'read');
      await beforeAccess(undefined, principal);
      const parentRow = await access.parentOf(undefined, principal, call, 'read');
      const { rows, meta } = await def.source!.list({ principal, deps, params, page, parent: parentRow });
      return { records: rows.map((r) => access.present(principal, r)), meta, included: await included(rows, include, principal) };
    },
  };
}

export type ResourceService = ReturnType<typeof createResourceService>;
