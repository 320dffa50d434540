import { parse } from '../cli-args.js';
import type { Command } from './command.js';

export const migrateCommand: Command = {
  usage: 'migrate',
  summary: 'Create the database when missing and apply pending migrations.',
  async run(args, ctx) {
    parse(args, {});
    // Opening the context already migrated; report what that applied.
    return { applied: ctx.applied };
  },
};

/** Builds `firewatch help` from the command table, so it cannot drift from it. */
export function helpCommand(commands: () => Record<string, Command>): Command {
  return {
    usage: 'help',
    summary: 'Show this help.',
    needsDatabase: false,
    async run() {
      const lines = [
        'Usage: firewatch <command> [options]',
        '',
        'Operates directly on the auth database named by DATABASE_URL (created and migrated',
        'first). Prints JSON on stdout; errors go to stderr (exit 1, usage errors exit 2).',
        '',
      ];
      for (const cmd of Object.values(commands())) lines.push(`  firewatch ${cmd.usage}`, `      ${cmd.summary}`);
      process.stdout.write(lines.join('\n') + '\n');
      return undefined;
    },
  };
}
