import pg from 'pg';

/** A service's own database and the role it connects as. */
export interface ServiceDatabase {
  database: string;
  role: string;
  password: string;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Runs `sql`, ignoring the error a concurrent provisioning of the same object raises:
 * `alreadyCode`, or a unique violation on the catalog when both creates raced.
 */
async function idempotent(client: pg.Client, sql: string, alreadyCode: string): Promise<void> {
  try {
    await client.query(sql);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code !== alreadyCode && code !== '23505') throw err;
  }
}

/**
 * Makes `role` a plain login role (no superuser, no CREATEDB, no CREATEROLE) that owns
 * `database`, and closes that database to every other role but the admin: a compromised
 * service then reads only its own data. Idempotent; `adminUrl` is a superuser's URL.
 * Tables an earlier install made as the admin are handed to the role.
 */
export async function provisionServiceDatabase(adminUrl: string, target: ServiceDatabase): Promise<void> {
  const { database, role } = target;
  if (!IDENTIFIER.test(database) || !IDENTIFIER.test(role)) throw new Error(`Unusual database or role name: ${database}, ${role}`);
  await withClient(withDatabase(adminUrl, 'postgres'), async (client) => {
    const password = client.escapeLiteral(target.password);
    const roleExists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
    if (!roleExists.rowCount) await idempotent(client, `CREATE ROLE "${role}" LOGIN`, '42710');
    await client.query(
      `ALTER ROLE "${role}" WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD ${password}`,
    );
    const dbExists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!dbExists.rowCount) await idempotent(client, `CREATE DATABASE "${database}" OWNER "${role}"`, '42P04');
    await client.query(`ALTER DATABASE "${database}" OWNER TO "${role}"`);
    await client.query(`REVOKE ALL ON DATABASE "${database}" FROM PUBLIC`);
  });
  await withClient(withDatabase(adminUrl, database), async (client) => {
    await client.query(`ALTER SCHEMA public OWNER TO "${role}"`);
    const { rows } = await client.query<{ kind: string; name: string }>(
      `SELECT CASE c.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE 'TABLE' END AS kind,
              quote_ident(c.relname) AS name
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'S')
          AND pg_get_userbyid(c.relowner) <> $1
          -- Sequences owned by a column follow their table.
          AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype IN ('a', 'i') AND c.relkind = 'S')`,
      [role],
    );
    for (const { kind, name } of rows) await client.query(`ALTER ${kind} public.${name} OWNER TO "${role}"`);
  });
}
