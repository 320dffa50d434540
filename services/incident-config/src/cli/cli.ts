import { parseArgs } from 'node:util';
import { createDb } from '@firewatch/db';
import { createCatalogAnnounceStore } from '../data/catalog-announce.repository.js';
import { createCatalogAnnounce } from '../domain/catalog/catalog-announce.js';

const USAGE = `Usage: node services/incident-config/dist/src/cli/main.js announce [--team-id N]

  announce   Re-send every service and functionality (or one team's) as <family>.updated
             through the outbox, to fill read models made after them (on-call's alert
             group targets). The running service's relay publishes them. Prints how many.

DATABASE_URL names incident-config's database.`;

/** A mistake in how the command was called: exit code 2 and the usage. */
class UsageError extends Error {}

function teamIdOf(args: string[]): number | undefined {
  let values: { 'team-id'?: string };
  try {
    ({ values } = parseArgs({ args, options: { 'team-id': { type: 'string' } }, strict: true, allowPositionals: false }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const v = values['team-id'];
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 2_147_483_647) throw new UsageError('--team-id must be a positive integer.');
  return Number(v);
}

/**
 * incident-config's command line: `announce`, the backfill of other services' read
 * models (docs/on-call.md, "Known targets"). JSON on stdout; 0, 1 (failed) or 2 (usage).
 */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv, io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream }) {
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === 'help' || command === '--help') {
      io.stdout.write(`${USAGE}\n`);
      return 0;
    }
    if (command !== 'announce') throw new UsageError(`Unknown command "${command}".`);
    const teamId = teamIdOf(rest);
    if (!env.DATABASE_URL) throw new Error("DATABASE_URL is not set: it names incident-config's database.");
    const knex = createDb(env.DATABASE_URL, { poolMax: 2 });
    try {
      const announced = await createCatalogAnnounce(createCatalogAnnounceStore(knex)).announce(teamId);
      io.stdout.write(`${JSON.stringify({ announced }, null, 2)}\n`);
      return 0;
    } finally {
      await knex.destroy();
    }
  } catch (err) {
    const usage = err instanceof UsageError;
    io.stderr.write(`incident-config: ${(err as Error).message}${usage ? `\n${USAGE}` : ''}\n`);
    return usage ? 2 : 1;
  }
}
