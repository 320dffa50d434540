import { NotFoundError, ValidationError } from '@firewatch/errors';
import type { TeamsRepository } from '../data/teams.repository.js';
import type { Tx, UnitOfWork } from '../data/transaction.js';
import type { UsersRepository } from '../data/users.repository.js';
import { toTeamView, toUserResource } from './identity.resources.js';
import { createTeamSchema, createUserSchema, type CreateTeamInput, type CreateUserInput } from './identity.schemas.js';
import { validateInput } from './input-validation.js';
import { hashPassword } from './password-hasher.js';

export interface IdentityServiceDeps {
  teams: TeamsRepository;
  users: UsersRepository;
  uow: UnitOfWork;
}

export type IdentityService = ReturnType<typeof createIdentityService>;

/** Teams and users: created by the CLI now, by OAuth sign-up and admin screens later. */
export function createIdentityService({ teams, users, uow }: IdentityServiceDeps) {
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
            role: values.role,
            on_call_role: values.on_call_role,
            password_hash: passwordHash,
            is_service_account: values.is_service_account,
          },
          t,
        );
        return toUserResource(row);
      };
      return tx ? run(tx) : uow.run(run);
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
