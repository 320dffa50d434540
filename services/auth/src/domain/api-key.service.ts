import { randomUUID } from 'node:crypto';
import { NotFoundError, ValidationError, type ValidationIssue } from '@firewatch/errors';
import { assertIfMatch, type EntityTagCondition } from '@firewatch/jsonapi';
import type { ApiKeyListQuery, ApiKeyPatch, ApiKeyRow, ApiKeysRepository } from './api-key.store.js';
import type { EventOutbox } from './event-outbox.js';
import type { Tx, UnitOfWork } from './unit-of-work.js';
import type { UsersRepository } from './users.store.js';
import type { GroupsLookup } from './groups/groups.store.js';
import { issueToken } from './api-key-token.js';
import { toApiKeyResource, type ApiKeyResource, type IssuedApiKey } from './api-key.presenter.js';
import { checkExpiry, draftApiKey, groupIssues, unknownUser } from './api-key.rules.js';
import { assertKeyWithin, checkExpiryWithin, type Actor } from './credential-bounds.rules.js';
import {
  canonicalKind,
  type CreateApiKeyInput,
  type RateLimitsInput,
  type RotateApiKeyInput,
  type UpdateApiKeyInput,
} from './api-key.schemas.js';

export interface ApiKeyServiceDeps {
  apiKeys: ApiKeysRepository;
  users: UsersRepository;
  /** A group key names groups of its team. */
  groups: GroupsLookup;
  uow: UnitOfWork;
  outbox: EventOutbox;
  /** Live keys one team may hold: each key is its own rate-limit budget. Default 100. */
  maxLivePerTeam?: number;
  now?: () => Date;
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;

const MINUTE_MS = 60_000;

/** API key management, shared by the HTTP API and the CLI. */
export function createApiKeyService({
  apiKeys,
  users,
  groups,
  uow,
  outbox,
  maxLivePerTeam = 100,
  now = () => new Date(),
}: ApiKeyServiceDeps) {
  const inTx = <T>(tx: Tx | undefined, fn: (tx: Tx) => Promise<T>) => (tx ? fn(tx) : uow.run(fn));

  /** Emits `api_key.<action>` with the resource as the API shows it, tokens never included. */
  async function emit(tx: Tx, action: 'created' | 'updated' | 'deleted', row: ApiKeyRow): Promise<ApiKeyResource> {
    const resource = toApiKeyResource(row);
    await outbox.write(tx, { type: `api_key.${action}`, team_id: row.team_id, data: resource });
    return resource;
  }

  /** The live key, locked until `tx` ends, once `ifMatch` (a request's If-Match) matches it as a GET answers it: else 412. */
  async function lockedLive(tx: Tx, teamId: number, id: string, ifMatch: EntityTagCondition | undefined): Promise<ApiKeyRow> {
    const row = await apiKeys.findLive(teamId, id, tx, true);
    if (!row) throw new NotFoundError();
    assertIfMatch(ifMatch, { data: toApiKeyResource(row) });
    return row;
  }

  async function change(teamId: number, id: string, patch: ApiKeyPatch, action: 'updated' | 'deleted', ifMatch?: EntityTagCondition) {
    return uow.run(async (tx) => {
      await lockedLive(tx, teamId, id, ifMatch);
      const row = await apiKeys.update(teamId, id, patch, tx);
      if (!row) throw new NotFoundError();
      return emit(tx, action, row);
    });
  }

  function validateOrThrow(issues: ValidationIssue[]): void {
    if (issues.length) throw new ValidationError(issues);
  }

  return {
    async create(actor: Actor, input: CreateApiKeyInput, tx?: Tx): Promise<IssuedApiKey> {
      const draft = draftApiKey(input, actor.user_id, now());
      assertKeyWithin(actor, draft);
      return inTx(tx, async (t) => {
        // Team-wide keys remember their creator; personal keys the user they act as. The
        // user is share-locked, so a deletion either waits for this key (and takes it along)
        // or went first: then a personal key has no user (422), and a team-wide key no
        // creator, as if it had been made just before (the column's ON DELETE SET NULL).
        const personal = draft.kind === 'personal';
        const userId = personal ? draft.user_id : actor.user_id;
        const user = userId === null ? undefined : await users.findInTeamForShare(actor.team_id, userId, t);
        if (personal && userId !== null && !user) throw unknownUser();
        if (draft.group_ids?.length) {
          const found = await groups.existingIds(t, actor.team_id, draft.group_ids);
          validateOrThrow(groupIssues(input, (id) => found.has(id)));
        }
        if ((await apiKeys.countLiveLocked(actor.team_id, t)) >= maxLivePerTeam) {
          throw new ValidationError([
            {
              pointer: '/data',
              code: 'limit_reached',
              detail: `A team may hold at most ${maxLivePerTeam} live API keys; revoke one first.`,
            },
          ]);
        }
        const issued = issueToken();
        const row = await apiKeys.insert(
          {
            ...draft,
            id: randomUUID(),
            team_id: actor.team_id,
            user_id: user ? userId : null,
            prefix: issued.prefix,
            token_hash: issued.hash,
          },
          t,
        );
        return { resource: await emit(t, 'created', row), token: issued.token };
      });
    },

    async list(teamId: number, query: ApiKeyListQuery) {
      const filters = query.filters.map((f) =>
        f.field !== 'kind'
          ? f
          : { ...f, value: Array.isArray(f.value) ? f.value.map((v) => canonicalKind(String(v))) : canonicalKind(String(f.value)) },
      );
      const { rows, ...found } = await apiKeys.list(teamId, { ...query, filters });
      return { resources: rows.map(toApiKeyResource), found };
    },

    async listAll(teamId: number): Promise<ApiKeyResource[]> {
      return (await apiKeys.listAll(teamId)).map(toApiKeyResource);
    },

    async get(teamId: number, id: string): Promise<ApiKeyResource> {
      const row = await apiKeys.findLive(teamId, id);
      if (!row) throw new NotFoundError();
      return toApiKeyResource(row);
    },

    /** Operator look-up across teams (CLI). */
    async getAnyTeam(id: string): Promise<ApiKeyResource & { team_id: number }> {
      const row = await apiKeys.findLiveAnyTeam(id);
      if (!row) throw new NotFoundError(`No live API key ${id}.`);
      return { ...toApiKeyResource(row), team_id: row.team_id };
    },

    async update(actor: Actor, id: string, input: UpdateApiKeyInput, ifMatch?: EntityTagCondition): Promise<ApiKeyResource> {
      const issues: ValidationIssue[] = [];
      const patch: ApiKeyPatch = {};
      if (input.name !== undefined) patch.name = input.name;
      if (input.description !== undefined) patch.description = input.description;
      if (input.expires_at !== undefined) patch.expires_at = checkExpiry(input.expires_at, now(), issues);
      validateOrThrow(issues);
      if (patch.expires_at !== undefined) checkExpiryWithin(actor, patch.expires_at);
      return change(actor.team_id, id, patch, 'updated', ifMatch);
    },

    /** Revokes at once: the key disappears from the API and stops resolving. */
    async revoke(teamId: number, id: string, ifMatch?: EntityTagCondition): Promise<ApiKeyResource> {
      return change(teamId, id, { revoked_at: now() }, 'deleted', ifMatch);
    },

    /**
     * Issues a new token. The old one keeps working for `grace_period_minutes`
     * (default 0: refused at once), so clients can roll without downtime. A new token is
     * a new credential in the caller's hands, so the key must be within the caller's bounds.
     */
    async rotate(actor: Actor, id: string, input: RotateApiKeyInput, ifMatch?: EntityTagCondition): Promise<IssuedApiKey> {
      const teamId = actor.team_id;
      const at = now();
      const issues: ValidationIssue[] = [];
      const expiresAt = input.expires_at === undefined ? undefined : checkExpiry(input.expires_at, at, issues);
      validateOrThrow(issues);
      const graceMs = (input.grace_period_minutes ?? 0) * MINUTE_MS;
      return uow.run(async (tx) => {
        const current = await lockedLive(tx, teamId, id, ifMatch);
        assertKeyWithin(actor, { ...current, expires_at: expiresAt !== undefined ? expiresAt : current.expires_at });
        const issued = issueToken();
        const row = await apiKeys.update(
          teamId,
          id,
          {
            prefix: issued.prefix,
            token_hash: issued.hash,
            previous_prefix: graceMs > 0 ? current.prefix : null,
            previous_token_hash: graceMs > 0 ? current.token_hash : null,
            grace_period_ends_at: graceMs > 0 ? new Date(at.getTime() + graceMs) : null,
            ...(expiresAt !== undefined ? { expires_at: expiresAt } : {}),
          },
          tx,
        );
        if (!row) throw new NotFoundError();
        return { resource: await emit(tx, 'updated', row), token: issued.token };
      });
    },

    /**
     * A group being deleted leaves every live key naming it, each announced as
     * `api_key.updated`, in the deletion's transaction. A key left with no group stays a
     * group key of none: it reaches no group's records, never the whole team's.
     */
    async dropGroup(tx: Tx, teamId: number, groupId: string): Promise<void> {
      for (const row of await apiKeys.removeGroup(teamId, groupId, tx)) await emit(tx, 'updated', row);
    },

    /** Per-key rate limits: operator only (CLI); null restores the default. */
    async setRateLimits(teamId: number, id: string, limits: RateLimitsInput): Promise<ApiKeyResource> {
      const patch: ApiKeyPatch = {};
      if (limits.rate_limit_read !== undefined) patch.rate_limit_read = limits.rate_limit_read;
      if (limits.rate_limit_write !== undefined) patch.rate_limit_write = limits.rate_limit_write;
      return change(teamId, id, patch, 'updated');
    },
  };
}
