import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A database of its own for one test file: its name and URL, not yet created, and how to drop it. */
export function scratchDatabase(prefix: string): { name: string; url: string; drop(): Promise<void> } {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}
