// Set-up shared by the suites over the PostgreSQL event transport: an events database and
// roles of their own, made in beforeAll and dropped in afterAll, so suites running at once
// never share a queue. Not in ./support.js, which loads the AMQP client: these suites run
// where RabbitMQ does not (scripts/test-selection.mjs).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createLogger } from '@firewatch/logger';
import { provisionPgEvents, type PgEventQueue } from '../src/index.js';

export const logger = createLogger({ service: 'events-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** Resolves once `check` holds, polling every 20 ms; throws naming `what` after `timeoutMs`. */
export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** One suite's events database: its name, its roles (password `pw`) and how to connect. */
export interface PgEventsWorld<R extends string> {
  /** Unique to this run: suffix of the database, the roles and the suite's queue names. */
  tag: string;
  roles: Record<R, string>;
  /** A connection string to the events database as `role`. */
  asRole(role: string): string;
  /** A client (not yet connected) to the events database as the administrator. */
  adminClient(): pg.Client;
  /** Creates the roles, then the events database with `queues`. */
  create(queues: PgEventQueue[]): Promise<void>;
  /** Drops the database and the roles. */
  drop(): Promise<void>;
}

/** The events database `fw_events_<name>_<tag>` with a role `fw_<name>_<role>_<tag>` for each of `roleNames`. */
export function pgEventsWorld<R extends string>(name: string, roleNames: readonly R[]): PgEventsWorld<R> {
  const tag = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const database = `fw_events_${name}_${tag}`;
  const roles = Object.fromEntries(roleNames.map((r) => [r, `fw_${name}_${r}_${tag}`])) as Record<R, string>;
  const admin = process.env.TEST_DATABASE_URL!;
  const on = (db: string) => Object.assign(new URL(admin), { pathname: `/${db}` }).toString();
  async function adminQuery(sql: string): Promise<void> {
    const c = new pg.Client({ connectionString: on('postgres') });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  }
  return {
    tag,
    roles,
    asRole: (role) => Object.assign(new URL(admin), { username: role, password: 'pw', pathname: `/${database}` }).toString(),
    adminClient: () => new pg.Client({ connectionString: on(database) }),
    async create(queues) {
      for (const role of Object.values<string>(roles)) await adminQuery(`CREATE ROLE ${role} LOGIN PASSWORD 'pw'`);
      await provisionPgEvents(admin, { database, roles: Object.values(roles), queues });
    },
    async drop() {
      await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      for (const role of Object.values<string>(roles)) await adminQuery(`DROP ROLE IF EXISTS ${role}`);
    },
  };
}
