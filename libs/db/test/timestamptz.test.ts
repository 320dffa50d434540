import { createRequire } from 'node:module';
import pg from 'pg';
import { createDb } from '../src/index.js';
import { parseTimestampTz } from '../src/create-db.js';
import { scratchDatabase } from './scratch-database.js';

// postgres-date, the parser pg registers for timestamptz, reached through pg as pg reaches it.
const fromPg = createRequire(createRequire(import.meta.url).resolve('pg'));
const postgresDate = createRequire(fromPg.resolve('pg-types'))('postgres-date') as (text: string) => Date | number | null;

/** What a parser gives for `text`, as a comparable string: a Date's time value (NaN when invalid), another value (an infinity, null), or the error thrown. */
const outcome = (parse: (text: string) => unknown, text: string): string => {
  try {
    const v = parse(text);
    return v instanceof Date ? `Date ${v.getTime()}` : `${typeof v} ${String(v)}`;
  } catch (err) {
    return `error ${String(err)}`;
  }
};

/** The texts on which the two parsers differ: none expected. */
const expectSame = (texts: readonly string[]) => {
  const differ: string[][] = [];
  for (const t of texts) {
    const ours = outcome(parseTimestampTz, t);
    const theirs = outcome(postgresDate, t);
    if (ours !== theirs) differ.push([t, ours, theirs]);
  }
  expect(differ).toEqual([]);
};

/** A small deterministic PRNG (mulberry32), so a failure reproduces. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

describe('parseTimestampTz', () => {
  it('is the parser pg uses for timestamptz once @firewatch/db is loaded', () => {
    expect(pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text')).toBe(parseTimestampTz);
  });

  it('gives the Date postgres-date gives for random canonical texts: 0-6 fraction digits, offsets, leap days', () => {
    const next = random(26);
    const int = (below: number) => Math.floor(next() * below);
    const texts: string[] = [];
    for (let k = 0; k < 200_000; k += 1) {
      const year = k % 10 === 0 ? 100 + int(9900) : 1970 + int(100);
      const month = 1 + int(12);
      const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
      const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
      const day = k % 50 === 0 ? days : 1 + int(days);
      const digits = int(7);
      const fraction = digits ? `.${pad(int(10 ** digits), digits)}` : '';
      const zone =
        k % 4 === 0
          ? '+00'
          : `${next() < 0.5 ? '+' : '-'}${pad(int(16), 2)}${k % 3 ? `:${pad(int(60), 2)}${k % 7 ? '' : `:${pad(int(60), 2)}`}` : ''}`;
      texts.push(
        `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)} ${pad(int(24), 2)}:${pad(int(60), 2)}:${pad(int(60), 2)}${fraction}${zone}`,
      );
    }
    expectSame(texts);
  });

  it('gives the same for every millisecond fraction, with 3 and 6 digits', () => {
    const texts: string[] = [];
    for (let ms = 0; ms < 1000; ms += 1) {
      texts.push(`2024-02-29 23:59:59.${pad(ms, 3)}+00`);
      texts.push(`2024-02-29 23:59:59.${pad(ms, 3)}999-03:30`);
      texts.push(`2024-02-29 23:59:59.${pad(ms, 3)}001+05:45`);
      texts.push(`1999-12-31 00:00:00.${String(ms).replace(/0+$/, '') || '0'}+00`);
    }
    expectSame(texts);
  });

  it('leaves everything else to postgres-date, with its answer', () => {
    expectSame([
      'infinity',
      '-infinity',
      '0001-01-01 00:00:00+00 BC',
      '2024-06-01 12:00:00+00 BC',
      '0099-12-31 23:59:59.999+00',
      '0000-02-29 00:00:00+00',
      '0050-03-01 12:00:00+02',
      '12345-01-01 00:00:00+00',
      '294276-12-31 23:59:59.999999+00',
      '2024-06-01 12:00:00.1234567+00',
      '2024-06-01 12:00:00.+00',
      '2024-06-01 12:00:00',
      '2024-06-01 12:00:00Z',
      '2024-06-01 12:00:00.5Z',
      '2024-06-01T12:00:00+00',
      '2024-06-01 12:00:00+0530',
      '2024-06-01 12:00:00+05:3',
      '2024-06-01 12:00:00+5',
      '2024-06-01 12:00:00+05:30:00:00',
      '2024-06-01 12:00:00 +00',
      '2024-06-01 12:00:00+00 ',
      '2024-06-01 12:00:00-00',
      '2024-13-01 12:00:00+00',
      '2024-00-01 12:00:00+00',
      '2024-02-30 12:00:00+00',
      '2024-02-00 12:00:00+00',
      '2024-06-01 24:00:00+00',
      '2024-06-01 12:60:60+00',
      '2024-06-01 1a:00:00+00',
      '2024-6-01 12:00:00+00',
      '2024-06-01',
      '9999-12-31 23:59:59.999999-15:59:59',
      '0100-01-01 00:00:00+15:59:59',
      '',
      'garbage',
    ]);
  });
});

describe('timestamptz values read from PostgreSQL', () => {
  const scratch = scratchDatabase('fw_test_tstz');
  let db: ReturnType<typeof createDb>;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${scratch.name}"`);
    await admin.end();
    db = createDb(scratch.url, { poolMax: 1 });
  });

  afterAll(async () => {
    await db?.destroy();
    await scratch.drop();
  });

  // Zones with whole-hour, half- and quarter-hour, negative and (before 1900) second-precision offsets.
  it.each(['UTC', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu', 'Europe/Amsterdam', 'Pacific/Chatham'])(
    'gives postgres-date’s Date and PostgreSQL’s instant under TimeZone %s',
    async (zone) => {
      await db.transaction(async (tx) => {
        await tx.raw(`set local timezone = '${zone}'`);
        const { rows } = (await tx.raw(`
          select t, t::text as text, (extract(epoch from t) * 1000)::float8 as ms from (
            select timestamptz '1850-01-01 00:00:00.123456+00' + (i * interval '1 day 3 hours 7 minutes 11.234567 seconds') as t
            from generate_series(0, 20000) i
            union all select timestamptz 'infinity' union all select timestamptz '-infinity'
            union all select timestamptz '0044-03-15 12:00:00 BC' union all select timestamptz '0099-12-31 23:59:59.999+00'
            union all select now()
          ) s`)) as { rows: { t: Date | number; text: string; ms: number }[] };
        expect(rows.length).toBe(20_006);
        expectSame(rows.map((r) => r.text));
        for (const r of rows) {
          if (r.t instanceof Date) expect(r.t.getTime()).toBe(Math.floor(r.ms));
          else expect(r.t).toBe(r.ms);
        }
      });
    },
  );
});
