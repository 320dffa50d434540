import { int, parse } from '../cli-args.js';
import type { Command } from './command.js';

export const groupsAnnounceCommand: Command = {
  usage: 'groups announce [--team-id N]',
  summary: "Re-send every group (/v1/teams; or one team's) as group.updated, to fill read models made later.",
  async run(args, { services }) {
    const p = parse(args, { 'team-id': { type: 'string' } });
    return services.groups.announce(int(p, 'team-id'));
  },
};
