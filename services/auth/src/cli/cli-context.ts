import type { Knex } from 'knex';
import { createDb, ensureDatabase, migrate } from '@firewatch/db';
import { createLogger } from '@firewatch/logger';
import { migrations } from '../../migrations/index.js';
import { createServices, type AuthServices } from '../create-services.js';

export interface CliContext {
  services: AuthServices;
  knex: Knex;
  /** Migrations this run applied. */
  applied: string[];
  close(): Promise<void>;
}

/** Opens the auth database named by DATABASE_URL, creating and migrating it first. */
export async function openContext(env: NodeJS.ProcessEnv): Promise<CliContext> {
  const url = env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: it names the auth database.');
  await ensureDatabase(url);
  const knex = createDb(url, { poolMax: 2 });
  try {
    const applied = await migrate(knex, migrations);
    // Logs go to stderr: stdout carries the command's JSON only.
    const logger = createLogger({ service: 'auth-cli', level: env.LOG_LEVEL ?? 'warn', stream: process.stderr });
    return { services: createServices({ knex, logger }), knex, applied, close: () => knex.destroy() };
  } catch (err) {
    await knex.destroy();
    throw err;
  }
}
