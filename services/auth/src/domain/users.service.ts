import { ConflictError, NotFoundError, ValidationError } from '@firewatch/errors';
import { assertIfMatch, type EntityTagCondition } from '@firewatch/jsonapi';
import { toApiKeyResource } from './api-key.presenter.js';
import type { Actor } from './credential-bounds.rules.js';
import type { EventOutbox } from './event-outbox.js';
import type { GroupMemberships } from './groups/group-memberships.js';
import { toUserResource } from './identity.presenter.js';
import type { Tx, UnitOfWork } from './unit-of-work.js';
import type { UserCredentialsRepository } from './user-credentials.store.js';
import { userEvent } from './user-events.js';
import { assertEditorMay, assertRolesWithin, demotesAdmin, lastAdmin, userChanges, type UserEditor } from './users.rules.js';
import type { UpdateUserAttributes } from './users.schemas.js';
import type { UserListQuery, UserRow, UsersRepository } from './users.store.js';

export interface UsersServiceDeps {
  users: UsersRepository;
  /** A deleted user's personal keys and OAuth sessions, grants and tokens go with it. */
  credentials: UserCredentialsRepository;
  /** A deleted user leaves every group, each announced as `group.updated`. */
  memberships: GroupMemberships;
  uow: UnitOfWork;
  outbox: EventOutbox;
  now?: () => Date;
}

export type UsersService = ReturnType<typeof createUsersService>;

/** A user id of the path: auth's ids are positive 32-bit integers, anything else names no user. */
function userIdOf(id: string): number {
  if (!/^[1-9]\d{0,9}$/.test(id) || Number(id) > 2_147_483_647) throw new NotFoundError();
  return Number(id);
}

/**
 * The users directory (`/v1/users`): any credential of the team reads it; team admins
 * change and delete users, a user changes their own name and time zone (users.rules.ts).
 * Every change records its `user.*` event in its transaction.
 */
export function createUsersService({ users, credentials, memberships, uow, outbox, now = () => new Date() }: UsersServiceDeps) {
  /** The user, locked until `tx` ends, once `ifMatch` matches it as a GET answers it: else 412. */
  async function locked(tx: Tx, teamId: number, id: number, ifMatch: EntityTagCondition | undefined): Promise<UserRow> {
    const row = await users.findInTeam(teamId, id, tx, true);
    if (!row) throw new NotFoundError();
    assertIfMatch(ifMatch, { data: toUserResource(row) });
    return row;
  }

  /**
   * The credentials that act as the user stop working in `tx`: personal API keys are
   * revoked (each announced as `api_key.deleted`, as a revocation over the API is), and
   * every OAuth session, grant and token is deleted.
   */
  async function revokeCredentials(tx: Tx, row: UserRow): Promise<void> {
    const keys = await credentials.revokePersonalKeys(row.team_id, row.id, now(), tx);
    await outbox.writeAll(
      tx,
      keys.map((key) => ({ type: 'api_key.deleted', team_id: key.team_id, data: toApiKeyResource(key) })),
    );
    await credentials.revokeOAuthGrants(row.id, tx);
  }

  return {
    async list(teamId: number, query: UserListQuery) {
      const { rows, ...found } = await users.list(teamId, query);
      return { resources: rows.map(toUserResource), found };
    },

    /** A user of the team; another team's user is as unknown as a missing one. */
    async get(teamId: number, id: string) {
      const row = await users.findInTeam(teamId, userIdOf(id));
      if (!row) throw new NotFoundError();
      return toUserResource(row);
    },

    /** 404 for a user the team does not have, before anyone judges the request. */
    async assertExists(teamId: number, id: string): Promise<number> {
      const userId = userIdOf(id);
      if (!(await users.findInTeam(teamId, userId))) throw new NotFoundError();
      return userId;
    },

    /**
     * Changes a user as `editor`: an admin anything the schema takes (roles within their
     * own bounds: users.rules.ts), a user their own names and time zone (else 403).
     * Taking the admin role from the team's last admin is a 422 `last_admin`. Emits
     * `user.updated` when anything changed.
     */
    async update(actor: Actor, editor: UserEditor, id: string, input: UpdateUserAttributes, ifMatch?: EntityTagCondition) {
      assertEditorMay(editor, input);
      const userId = userIdOf(id);
      return uow.run(async (tx) => {
        const row = await locked(tx, actor.team_id, userId, ifMatch);
        const changes = userChanges(row, input);
        if (!Object.keys(changes).length) return toUserResource(row);
        assertRolesWithin(actor.principal, row, changes);
        if (demotesAdmin(row, changes) && (await users.countAdminsLocked(actor.team_id, tx)) <= 1) throw lastAdmin('demote');
        const updated = await users.update(actor.team_id, userId, changes, tx);
        if (!updated) throw new NotFoundError();
        await outbox.write(tx, userEvent('updated', updated));
        return toUserResource(updated);
      });
    },

    /**
     * Deletes a user of the team, in one transaction: its personal API keys and OAuth
     * grants stop working at once (revokeCredentials), the row goes, `user.deleted` is
     * emitted (on-call drops the user from its read model and rotations). An API caller
     * cannot delete themselves nor the team's last admin (422); nobody deletes a live
     * OAuth application's service user (409: revoke the application instead).
     */
    async remove(actor: Actor, id: string, ifMatch?: EntityTagCondition) {
      const userId = userIdOf(id);
      return uow.run(async (tx) => {
        const row = await locked(tx, actor.team_id, userId, ifMatch);
        if (actor.principal && actor.user_id === userId) {
          throw new ValidationError([
            { pointer: '/data', code: 'self_deletion', detail: 'You cannot delete yourself; another admin can.' },
          ]);
        }
        if (await users.heldByLiveApplication(userId, tx)) {
          throw new ConflictError(`User ${userId} is the service user of a live OAuth application; revoke the application instead.`);
        }
        if (actor.principal && row.role === 'admin' && !row.is_service_account && (await users.countAdminsLocked(actor.team_id, tx)) <= 1) {
          throw lastAdmin('delete');
        }
        await revokeCredentials(tx, row);
        // The row is locked (`locked`), so no group write naming the user commits after this.
        await memberships.leaveAll(tx, actor.team_id, userId);
        const gone = await users.remove(actor.team_id, userId, tx);
        if (!gone) throw new NotFoundError();
        await outbox.write(tx, userEvent('deleted', gone));
        return toUserResource(gone);
      });
    },
  };
}
