import pg from 'pg';

export function databaseName(connectionString: string): string {
  return decodeURIComponent(new URL(connectionString).pathname.replace(/^\//, ''));
}

/**
 * Creates the database named in `connectionString` when it does not exist, by
 * connecting to the server's `postgres` database. For first start-up and tests.
 */
export async function ensureDatabase(connectionString: string): Promise<boolean> {
  const name = databaseName(connectionString);
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`Refusing to create database with unusual name "${name}"`);
  const admin = new URL(connectionString);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return false;
    try {
      await client.query(`CREATE DATABASE "${name}"`);
    } catch (err) {
      // Another process created it between our check and our create.
      if ((err as { code?: string }).code !== '42P04') throw err;
      return false;
    }
    return true;
  } finally {
    await client.end();
  }
}
