import pg from 'pg';

/** A service's own database and the role it connects as. */
export interface ServiceDatabase {
  database: string;
  role: string;
  password: string;
}

/** What provisioning could not do as the given administrator, each with why; empty as a superuser. */
export interface ProvisionReport {
  skipped: string[];
}

interface Admin {
  name: string;
  superuser: boolean;
  createRole: boolean;
  createDb: boolean;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;
const INSUFFICIENT_PRIVILEGE = '42501';

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

const codeOf = (err: unknown) => (err as { code?: string }).code;

/**
 * Runs `sql`, ignoring the error a concurrent provisioning of the same object raises:
 * `alreadyCode`, or a unique violation on the catalog when both creates raced.
 */
async function idempotent(client: pg.Client, sql: string, alreadyCode: string): Promise<void> {
  try {
    await client.query(sql);
  } catch (err) {
    if (codeOf(err) !== alreadyCode && codeOf(err) !== '23505') throw err;
  }
}

/** Runs `sql`; a refusal for want of privilege is noted in `skipped` (as `what`) instead of thrown. */
async function optional(client: pg.Client, sql: string, what: string, skipped: string[]): Promise<void> {
  try {
    await client.query(sql);
  } catch (err) {
    if (codeOf(err) !== INSUFFICIENT_PRIVILEGE) throw err;
    skipped.push(`${what}: ${(err as Error).message}`);
  }
}

async function adminOf(client: pg.Client): Promise<Admin> {
  const { rows } = await client.query<Admin>(
    'SELECT rolname AS name, rolsuper AS superuser, rolcreaterole AS "createRole", rolcreatedb AS "createDb" FROM pg_roles WHERE rolname = current_user',
  );
  return rows[0]!;
}

/**
 * The role, a plain login role with the target's password. A superuser asserts every
 * attribute; other administrators (managed PostgreSQL has no superuser) may not touch
 * SUPERUSER, REPLICATION or BYPASSRLS, so the role is checked to have none instead.
 */
async function provisionRole(client: pg.Client, admin: Admin, target: ServiceDatabase, skipped: string[]): Promise<void> {
  const { role } = target;
  const password = client.escapeLiteral(target.password);
  const exists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
  if (!exists.rowCount) {
    if (!admin.superuser && !admin.createRole) {
      throw new Error(`${admin.name} may not create roles (neither superuser nor CREATEROLE): create the login role "${role}" first`);
    }
    await idempotent(client, `CREATE ROLE "${role}" LOGIN`, '42710');
  }
  if (admin.superuser) {
    await client.query(
      `ALTER ROLE "${role}" WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD ${password}`,
    );
    return;
  }
  skipped.push(
    `role "${role}": its SUPERUSER, REPLICATION and BYPASSRLS attributes are checked, not set (${admin.name} is not a superuser)`,
  );
  await optional(client, `ALTER ROLE "${role}" WITH LOGIN PASSWORD ${password}`, `role "${role}": setting its password`, skipped);
  const { rows } = await client.query(
    `SELECT rolsuper OR rolcreatedb OR rolcreaterole OR rolreplication OR rolbypassrls AS privileged FROM pg_roles WHERE rolname = $1`,
    [role],
  );
  if (rows[0]?.privileged) {
    throw new Error(`role "${role}" has SUPERUSER, CREATEDB, CREATEROLE, REPLICATION or BYPASSRLS: a service's role must have none`);
  }
  // Creating or handing over a database owned by the role needs membership in it (the
  // creator of a role may grant it to itself).
  await optional(client, `GRANT "${role}" TO CURRENT_USER`, `granting "${role}" to ${admin.name}`, skipped);
}

/** The database, owned by the role and closed to every other role but the administrator. */
async function provisionDatabase(client: pg.Client, admin: Admin, target: ServiceDatabase, skipped: string[]): Promise<void> {
  const { database, role } = target;
  const { rows } = await client.query<{ owner: string }>('SELECT pg_get_userbyid(datdba) AS owner FROM pg_database WHERE datname = $1', [
    database,
  ]);
  if (!rows.length) {
    if (!admin.superuser && !admin.createDb) {
      throw new Error(`${admin.name} may not create databases (no CREATEDB): create database "${database}" owned by "${role}" first`);
    }
    await idempotent(client, `CREATE DATABASE "${database}" OWNER "${role}"`, '42P04');
  } else if (rows[0]!.owner !== role) {
    await client.query(`ALTER DATABASE "${database}" OWNER TO "${role}"`);
  }
  await optional(client, `REVOKE ALL ON DATABASE "${database}" FROM PUBLIC`, `closing "${database}" to other roles`, skipped);
}

/** Hands the public schema and tables an earlier install made as the administrator to the role. */
async function handOver(client: pg.Client, role: string, skipped: string[]): Promise<void> {
  await optional(client, `ALTER SCHEMA public OWNER TO "${role}"`, `schema public: handing it to "${role}"`, skipped);
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
  for (const { kind, name } of rows) {
    await optional(
      client,
      `ALTER ${kind} public.${name} OWNER TO "${role}"`,
      `${kind.toLowerCase()} ${name}: handing it to "${role}"`,
      skipped,
    );
  }
}

/**
 * Makes `role` a plain login role (no superuser, no CREATEDB, no CREATEROLE) that owns
 * `database`, and closes that database to every other role but the admin: a compromised
 * service then reads only its own data. Idempotent. Tables an earlier install made as the
 * admin are handed to the role. `adminUrl` is a superuser's URL, or on managed PostgreSQL
 * (no superuser) a role with CREATEROLE and CREATEDB: what only a superuser may do is then
 * checked or skipped, and listed in the report.
 */
export async function provisionServiceDatabase(adminUrl: string, target: ServiceDatabase): Promise<ProvisionReport> {
  const { database, role } = target;
  if (!IDENTIFIER.test(database) || !IDENTIFIER.test(role)) throw new Error(`Unusual database or role name: ${database}, ${role}`);
  const skipped: string[] = [];
  await withClient(withDatabase(adminUrl, 'postgres'), async (client) => {
    const admin = await adminOf(client);
    await provisionRole(client, admin, target, skipped);
    await provisionDatabase(client, admin, target, skipped);
  });
  await withClient(withDatabase(adminUrl, database), (client) => handOver(client, role, skipped));
  return { skipped };
}
