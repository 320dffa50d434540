import { authorize, type Capability, type Principal } from '@firewatch/auth';
import { ConflictError, NotFoundError, ValidationError } from '@firewatch/errors';
import type { ListQuery, ResourceObject } from '@firewatch/jsonapi';
import type { HookContext, ResourceDefinition, Row } from './resource-definition.js';
import type { ResourceRepository } from './resource.repository.js';
import { serialize } from './serialize.js';
import { firstFreeSlug, slugify } from './slug.js';

/** Writes an event into the outbox inside the given transaction. */
export type EventWriter = (tx: unknown, event: { type: string; team_id: number; data: unknown }) => Promise<unknown>;

export interface ResourceServiceDeps {
  repository: ResourceRepository;
  writeEvent: EventWriter;
}

export interface Loaded {
  record: ResourceObject;
  included: ResourceObject[];
}

const SLUG_RETRIES = 3;

/** The use cases of a declared resource: authorisation, rules, persistence and events. */
export function createResourceService(def: ResourceDefinition, { repository, writeEvent }: ResourceServiceDeps) {
  const can = (principal: Principal, action: Capability, recordId?: string) =>
    authorize(principal, { ...def.permission, action, recordId });

  async function load(tx: unknown, principal: Principal, idOrSlug: string, action: Capability, forUpdate = false) {
    const row = await repository.find(tx, principal.team_id, idOrSlug, forUpdate);
    if (!row) throw new NotFoundError(`No ${def.summary?.singular ?? def.type} with id or slug "${idOrSlug}".`);
    can(principal, action, String(row.id));
    return row;
  }

  async function includes(rows: Row[], names: string[], principal: Principal): Promise<ResourceObject[]> {
    const out: ResourceObject[] = [];
    for (const name of names) out.push(...(await def.includes![name](rows, { principal, tx: undefined })));
    return out;
  }

  async function checked(attrs: Row, ctx: HookContext): Promise<void> {
    const issues = def.validate ? await def.validate(attrs, ctx) : [];
    if (issues.length) throw new ValidationError(issues);
  }

  async function slugFor(tx: unknown, teamId: number, attrs: Row): Promise<string | undefined> {
    if (!def.slug) return undefined;
    if (typeof attrs.slug === 'string') return attrs.slug;
    const base = slugify(String(attrs[def.slug.from] ?? ''));
    return firstFreeSlug(base, await repository.slugsLike(tx, teamId, base));
  }

  async function emit(tx: unknown, principal: Principal, action: string, record: ResourceObject) {
    await writeEvent(tx, { type: `${def.event}.${action}`, team_id: principal.team_id, data: record });
  }

  return {
    async list(principal: Principal, query: ListQuery) {
      can(principal, 'read');
      const { rows, total } = await repository.list(principal.team_id, query, principal.record_ids);
      return { records: rows.map((r) => serialize(def, r)), total, included: await includes(rows, query.include, principal) };
    },

    async get(principal: Principal, idOrSlug: string, include: string[] = []): Promise<Loaded> {
      const row = await load(undefined, principal, idOrSlug, 'read');
      return { record: serialize(def, row), included: await includes([row], include, principal) };
    },

    async create(principal: Principal, attributes: Row): Promise<ResourceObject> {
      can(principal, 'create');
      for (let attempt = 1; ; attempt++) {
        try {
          return await repository.transaction(async (tx) => {
            const ctx: HookContext = { principal, tx };
            let attrs = def.defaults ? await def.defaults({ ...attributes }, ctx) : { ...attributes };
            await checked(attrs, ctx);
            const slug = await slugFor(tx, principal.team_id, attrs);
            if (slug !== undefined) attrs = { ...attrs, slug };
            const columns = def.toColumns ? await def.toColumns(attrs, ctx) : attrs;
            const row = await repository.insert(tx, { ...columns, team_id: principal.team_id });
            const record = serialize(def, row);
            await emit(tx, principal, 'created', record);
            if (!def.revealOnCreate) return record;
            return { ...record, attributes: { ...record.attributes, ...def.revealOnCreate(attrs, row) } };
          });
        } catch (err) {
          // Two creates can pick the same generated slug; the loser picks again.
          const generated = def.slug && typeof attributes.slug !== 'string';
          if (!(err instanceof ConflictError && err.code === 'slug_taken' && generated && attempt < SLUG_RETRIES)) throw err;
        }
      }
    },

    /**
     * `readAttributes` parses the request body; it runs only once the record is known to
     * exist and be the caller's, so an unknown id is a 404 before the body is judged.
     * `bodyId`, when the document carried `data.id`, must name the same record.
     */
    async update(principal: Principal, idOrSlug: string, readAttributes: () => Row, bodyId?: string): Promise<ResourceObject> {
      return repository.transaction(async (tx) => {
        const existing = await load(tx, principal, idOrSlug, 'update', true);
        const attributes = readAttributes();
        if (bodyId !== undefined && bodyId !== idOrSlug && bodyId !== String(existing.id)) {
          throw new ConflictError('data.id does not match the id in the path.', { source: { pointer: '/data/id' }, code: 'id_mismatch' });
        }
        const ctx: HookContext = { principal, tx, existing };
        await checked({ ...attributes }, ctx);
        const columns = def.toColumns ? await def.toColumns({ ...attributes }, ctx) : attributes;
        const row = await repository.update(tx, principal.team_id, String(existing.id), columns);
        const record = serialize(def, row);
        await emit(tx, principal, 'updated', record);
        return record;
      });
    },

    async remove(principal: Principal, idOrSlug: string): Promise<ResourceObject> {
      return repository.transaction(async (tx) => {
        const existing = await load(tx, principal, idOrSlug, 'delete', true);
        await repository.remove(tx, principal.team_id, String(existing.id));
        const record = serialize(def, existing);
        await emit(tx, principal, 'deleted', record);
        return record;
      });
    },
  };
}

export type ResourceService = ReturnType<typeof createResourceService>;
