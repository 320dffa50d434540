import pg from 'pg';
import type { Knex } from 'knex';
import { createDb, listPage, type OrderKey } from '../src/index.js';
import { scratchDatabase } from './scratch-database.js';

const scratch = scratchDatabase('fw_test_keyset');
let db: Knex;

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${scratch.name}"`);
  await admin.end();
  db = createDb(scratch.url, { poolMax: 2 });
  await db.schema.createTable('things', (t) => {
    t.increments('id');
    t.integer('team_id').notNullable();
    t.text('name');
    t.jsonb('tags');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db('things').insert(
    Array.from({ length: 25 }, (_, i) => ({ team_id: 1, name: i % 4 ? `Thing ${i % 9}` : null, tags: JSON.stringify([i]) })),
  );
});

afterAll(async () => {
  await db?.destroy();
  await scratch.drop();
});

const order: OrderKey[] = [
  { column: 'things.name', direction: 'asc', nullable: true, lower: true },
  { column: 'things.id', direction: 'asc' },
];

describe('listPage rows', () => {
  it('are the table’s rows as a plain select gives them: same columns in the same order, no key or total columns', async () => {
    const plain = (await db('things').where({ team_id: 1 }).select('*').orderByRaw('lower(name) asc nulls last, id asc')) as Record<
      string,
      unknown
    >[];
    const seen: Record<string, unknown>[] = [];
    let page = await listPage<Record<string, unknown>>(db, db('things').where({ team_id: 1 }), {
      table: 'things',
      order,
      page: { number: 1, size: 10 },
      binding: 1,
    });
    expect(page.total).toBe(25);
    seen.push(...page.rows);
    while (page.nextCursor) {
      page = await listPage<Record<string, unknown>>(db, db('things').where({ team_id: 1 }), {
        table: 'things',
        order,
        page: { number: 1, size: 10, after: page.nextCursor },
        binding: 1,
      });
      seen.push(...page.rows);
    }
    expect(seen).toEqual(plain);
    for (const [i, row] of seen.entries()) {
      expect(Object.keys(row)).toEqual(Object.keys(plain[i]!));
      expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    }
  });

  it('is empty for a team without rows', async () => {
    const page = await listPage(db, db('things').where({ team_id: 2 }), {
      table: 'things',
      order,
      page: { number: 1, size: 10 },
      binding: 2,
    });
    expect(page).toEqual({ rows: [], total: 0 });
  });

  it('are read by the SQL text knex’s builder wrote for each key (the order’s text is kept, not rebuilt per page)', async () => {
    const sql: string[] = [];
    const record = (q: { sql: string }) => sql.push(q.sql);
    db.on('query', record);
    try {
      const first = await listPage(db, db('things').where({ team_id: 1 }), {
        table: 'things',
        order,
        page: { number: 1, size: 10 },
        binding: 1,
      });
      await listPage(db, db('things').where({ team_id: 1 }), {
        table: 'things',
        order,
        page: { number: 1, size: 10, after: first.nextCursor },
        binding: 1,
      });
    } finally {
      db.off('query', record);
    }
    const keys = 'select "things".*, (lower("things"."name"))::text as "__key0", ("things"."id")::text as "__key1"';
    const orderBy = 'order by lower("things"."name") asc nulls last, "things"."id" asc nulls last';
    // knex's query event shows PostgreSQL's placeholders, numbered.
    const native = (text: string) => {
      let n = 0;
      return text.replace(/\?/g, () => `$${(n += 1)}`);
    };
    expect(sql).toEqual([
      native(
        `${keys}, (select count(*) from ((select 1 from "things" where "team_id" = ? limit ?)) as __counted) as __total from "things" where "team_id" = ? ${orderBy} limit ?`,
      ),
      native(
        `select * from (((${keys} from "things" where "team_id" = ? and ((lower("things"."name"), "things"."id") > (?, ?)) ${orderBy} limit ?)) ` +
          `union all ((${keys} from "things" where "team_id" = ? and ("things"."name" is null) ${orderBy} limit ?))) as "things" ${orderBy} limit ?`,
      ),
    ]);
  });
});
