import { NotFoundError, ValidationError } from '@firewatch/errors';
import type { EventOutbox } from './event-outbox.js';
import type { TeamsRepository } from './teams.store.js';
import type { Tx, UnitOfWork } from './unit-of-work.js';
import type { UsersRepository } from './users.store.js';
import { toTeamView, toUserResource } from './identity.presenter.js';
import {
  createTeamSchema,
  createUserSchema,
  updateUserSchema,
  type CreateTeamInput,
  type CreateUserInput,
  type UpdateUserInput,
} from './identity.schemas.js';
import { validateInput } from './input-validation.js';
import { hashPassword } from './password-hasher.js';
import { userEvent } from './user-events.js';
import { splitName } from './users.rules.js';

export interface IdentityServiceDeps {
  teams: TeamsRepository;
  users: UsersRepository;
  uow: UnitOfWork;
  /** Every user write records its `user.*` event in the write's transaction. */
  outbox: EventOutbox;
}

/** Users per transaction when `announceUsers` re-sends them. */
const ANNOUNCE_BATCH = 500;

export type IdentityService = ReturnType<typeof createIdentityService>;

/** Teams and users: created by the CLI now, by OAuth sign-up and admin screens later. */
export function createIdentityService({ teams, users, uow, outbox }: IdentityServiceDeps) {
  return {
    async createTeam(input: CreateTeamInput, tx?: Tx) {
      const { name } = validateInput(createTeamSchema, input);
      return toTeamView(await teams.insert({ name }, tx));
    },

    async getTeam(id: number) {
      const row = await teams.findById(id);
      if (!row) throw new NotFoundError(`No team ${id}.`);
      return toTeamView(row);
    },

    async listTeams() {
      return (await teams.list()).map(toTeamView);
    },

    async createUser(input: CreateUserInput, tx?: Tx) {
      const values = validateInput(createUserSchema, input);
      // Hashing is slow on purpose; do it before a transaction holds a connection.
      const passwordHash = values.password ? await hashPassword(values.password) : null;
      const run = async (t: Tx) => {
        if (!(await teams.findById(values.team_id, t))) {
          throw new ValidationError([{ pointer: '/data/attributes/team_id', detail: `No team ${values.team_id}.`, code: 'not_found' }]);
        }
        const row = await users.insert(
          {
            team_id: values.team_id,
            email: values.email,
            name: values.name,
            // An application's service user is no person with a first and last name.
            ...(values.is_service_account ? {} : splitName(values.name)),
            ...(values.time_zone ? { time_zone: values.time_zone } : {}),
            role: values.role,
            on_call_role: values.on_call_role,
            password_hash: passwordHash,
            is_service_account: values.is_service_account,
          },
          t,
        );
        await outbox.write(t, userEvent('created', row));
        return toUserResource(row);
      };
      return tx ? run(tx) : uow.run(run);
    },

    /**
     * Changes a user of the team (another team's user is unknown) as the operator does
     * (CLI): a new name splits into first and last name; emits `user.updated`. The API's
     * changes, bounded by who makes them, are users.service.ts's.
     */
    async updateUser(teamId: number, userId: number, input: UpdateUserInput) {
      const { password, ...changes } = validateInput(updateUserSchema, input);
      const passwordHash = password ? await hashPassword(password) : undefined;
      return uow.run(async (tx) => {
        const current = await users.findInTeam(teamId, userId, tx, true);
        if (!current) throw new NotFoundError(`No user ${userId} in team ${teamId}.`);
        const names = changes.name && !current.is_service_account ? splitName(changes.name) : {};
        const row = await users.update(
          teamId,
          userId,
          { ...changes, ...names, ...(passwordHash ? { password_hash: passwordHash } : {}) },
          tx,
        );
        if (!row) throw new NotFoundError(`No user ${userId} in team ${teamId}.`);
        await outbox.write(tx, userEvent('updated', row));
        return toUserResource(row);
      });
    },

    /**
     * Re-sends every user (of one team, or all) as `user.updated` with its current
     * version: the backfill of read models made after the users (docs/decisions.md).
     * Consumers that already hold a version ignore it. Returns how many were sent.
     */
    async announceUsers(teamId?: number) {
      let sent = 0;
      for (let after = 0; ;) {
        const rows = await users.page(after, ANNOUNCE_BATCH, teamId);
        if (!rows.length) return { announced: sent };
        await uow.run((tx) =>
          outbox.writeAll(
            tx,
            rows.map((row) => userEvent('updated', row)),
          ),
        );
        sent += rows.length;
        after = rows[rows.length - 1].id;
      }
    },

    async listUsers(teamId: number) {
      return (await users.listByTeam(teamId)).map(toUserResource);
    },

    /** A user of the team; another team's user is as unknown as a missing one. */
    async getUser(teamId: number, userId: number) {
      const row = await users.findInTeam(teamId, userId);
      if (!row) throw new NotFoundError();
      return toUserResource(row);
    },
  };
}
