import type { Role } from '@firewatch/auth';
import { int, parse, required, requiredInt, str } from '../cli-args.js';
import { operator } from '../../domain/credential-bounds.rules.js';
import { userView, type Command } from './command.js';

export const teamsCreateCommand: Command = {
  usage: 'teams create --name NAME',
  summary: 'Create a team.',
  async run(args, { services }) {
    const p = parse(args, { name: { type: 'string' } });
    return services.identity.createTeam({ name: required(p, 'name') });
  },
};

export const teamsListCommand: Command = {
  usage: 'teams list',
  summary: 'List teams.',
  async run(args, { services }) {
    parse(args, {});
    return services.identity.listTeams();
  },
};

export const usersCreateCommand: Command = {
  usage: 'users create --team-id N --email E --name N [--role R] [--on-call-role R] [--time-zone Z] [--password P] [--service-account]',
  summary: 'Create a user (roles: admin, user, observer; default user; time zone: IANA, default Etc/UTC).',
  async run(args, { services }) {
    const p = parse(args, {
      'team-id': { type: 'string' },
      email: { type: 'string' },
      name: { type: 'string' },
      role: { type: 'string' },
      'on-call-role': { type: 'string' },
      'time-zone': { type: 'string' },
      password: { type: 'string' },
      'service-account': { type: 'boolean' },
    });
    const user = await services.identity.createUser({
      team_id: requiredInt(p, 'team-id'),
      email: required(p, 'email'),
      name: required(p, 'name'),
      role: str(p, 'role') as Role | undefined,
      on_call_role: str(p, 'on-call-role') as Role | undefined,
      time_zone: str(p, 'time-zone'),
      password: str(p, 'password'),
      is_service_account: p.values['service-account'] === true,
    });
    return userView(user);
  },
};

export const usersListCommand: Command = {
  usage: 'users list --team-id N',
  summary: "List a team's users.",
  async run(args, { services }) {
    const p = parse(args, { 'team-id': { type: 'string' } });
    return (await services.identity.listUsers(requiredInt(p, 'team-id'))).map(userView);
  },
};

export const usersUpdateCommand: Command = {
  usage: 'users update --team-id N --id N [--email E] [--name N] [--role R] [--on-call-role R] [--time-zone Z] [--password P]',
  summary: 'Change a user (emits user.updated).',
  async run(args, { services }) {
    const p = parse(args, {
      'team-id': { type: 'string' },
      id: { type: 'string' },
      email: { type: 'string' },
      name: { type: 'string' },
      role: { type: 'string' },
      'on-call-role': { type: 'string' },
      'time-zone': { type: 'string' },
      password: { type: 'string' },
    });
    const user = await services.identity.updateUser(requiredInt(p, 'team-id'), requiredInt(p, 'id'), {
      email: str(p, 'email'),
      name: str(p, 'name'),
      role: str(p, 'role') as Role | undefined,
      on_call_role: str(p, 'on-call-role') as Role | undefined,
      time_zone: str(p, 'time-zone'),
      password: str(p, 'password'),
    });
    return userView(user);
  },
};

export const usersDeleteCommand: Command = {
  usage: 'users delete --team-id N --id N',
  summary: 'Delete a user: revokes its personal API keys and OAuth grants, emits user.deleted (on-call removes it from its rotations).',
  async run(args, { services }) {
    const p = parse(args, { 'team-id': { type: 'string' }, id: { type: 'string' } });
    return userView(await services.users.remove(operator(requiredInt(p, 'team-id')), String(requiredInt(p, 'id'))));
  },
};

export const usersAnnounceCommand: Command = {
  usage: 'users announce [--team-id N]',
  summary: "Re-send every user (or one team's) as user.updated, to fill read models made later (on-call's).",
  async run(args, { services }) {
    const p = parse(args, { 'team-id': { type: 'string' } });
    return services.identity.announceUsers(int(p, 'team-id'));
  },
};
