#!/usr/bin/env node
import { HttpError, ValidationError } from '@firewatch/errors';
import { openContext, type CliContext } from './cli-context.js';
import { UsageError } from './cli-args.js';
import { apiKeysCreateCommand, apiKeysListCommand, apiKeysRevokeCommand, apiKeysSetLimitsCommand } from './commands/api-keys.command.js';
import { bootstrapCommand } from './commands/bootstrap.command.js';
import { groupsAnnounceCommand } from './commands/groups.command.js';
import type { Command } from './commands/command.js';
import {
  teamsCreateCommand,
  teamsListCommand,
  usersAnnounceCommand,
  usersCreateCommand,
  usersDeleteCommand,
  usersListCommand,
  usersUpdateCommand,
} from './commands/identity.command.js';
import { helpCommand, migrateCommand } from './commands/maintenance.command.js';
import { appsCreateCommand, appsListCommand, appsRevokeCommand, keysGenerateCommand } from './commands/oauth.command.js';

const COMMANDS: Record<string, Command> = {
  bootstrap: bootstrapCommand,
  'users create': usersCreateCommand,
  'users list': usersListCommand,
  'users update': usersUpdateCommand,
  'users delete': usersDeleteCommand,
  'users announce': usersAnnounceCommand,
  'groups announce': groupsAnnounceCommand,
  'teams create': teamsCreateCommand,
  'teams list': teamsListCommand,
  'api-keys create': apiKeysCreateCommand,
  'api-keys list': apiKeysListCommand,
  'api-keys revoke': apiKeysRevokeCommand,
  'api-keys set-limits': apiKeysSetLimitsCommand,
  'apps create': appsCreateCommand,
  'apps list': appsListCommand,
  'apps revoke': appsRevokeCommand,
  'keys generate': keysGenerateCommand,
  migrate: migrateCommand,
};
COMMANDS.help = helpCommand(() => COMMANDS);

/** The command named by the first one or two words of argv, and the rest. */
function lookup(argv: string[]): { command: Command; rest: string[] } {
  const [first, second] = argv;
  if (first === undefined || first === '--help' || first === '-h') return { command: COMMANDS.help, rest: [] };
  const two = `${first} ${second ?? ''}`.trim();
  if (COMMANDS[two] && second !== undefined) return { command: COMMANDS[two], rest: argv.slice(2) };
  if (COMMANDS[first]) return { command: COMMANDS[first], rest: argv.slice(1) };
  throw new UsageError(`Unknown command "${argv.slice(0, 2).join(' ')}".`);
}

function describe(err: unknown): string {
  if (err instanceof ValidationError) return err.issues.map((i) => i.detail).join('; ');
  if (err instanceof HttpError) return err.detail ?? err.title;
  return err instanceof Error ? err.message : String(err);
}

async function main(argv: string[]): Promise<number> {
  let ctx: CliContext | undefined;
  try {
    const { command, rest } = lookup(argv);
    if (command.needsDatabase !== false) ctx = await openContext(process.env);
    const out = await command.run(rest, ctx as CliContext);
    if (out !== undefined) process.stdout.write(JSON.stringify(out, null, 2) + '\n');
    return 0;
  } catch (err) {
    const usage = err instanceof UsageError;
    process.stderr.write(`firewatch: ${describe(err).replace(/\s*\n\s*/g, ' ')}${usage ? ' (see `firewatch help`)' : ''}\n`);
    return usage ? 2 : 1;
  } finally {
    await ctx?.close();
  }
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
