import { parse, str } from '../cli-args.js';
import { flatten, userView, type Command } from './command.js';

export const bootstrapCommand: Command = {
  usage: 'bootstrap [--team-name NAME] [--email E] [--name N] [--password P]',
  summary: 'Create a team, its admin user and a global admin API key (token shown once).',
  async run(args, { services }) {
    const p = parse(args, {
      'team-name': { type: 'string' },
      email: { type: 'string' },
      name: { type: 'string' },
      password: { type: 'string' },
    });
    const out = await services.bootstrap.bootstrap({
      team_name: str(p, 'team-name') ?? 'Default team',
      email: str(p, 'email') ?? 'admin@example.com',
      name: str(p, 'name') ?? 'Administrator',
      password: str(p, 'password'),
    });
    return {
      team: out.team,
      user: userView(out.user),
      api_key: flatten(out.api_key.resource, { token: out.api_key.token }),
    };
  },
};
