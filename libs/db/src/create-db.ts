import knex, { type Knex } from 'knex';
import pg from 'pg';

export type Db = Knex;

export interface DbOptions {
  poolMin?: number;
  poolMax?: number;
  /** Per-statement timeout, so one slow query cannot hold a connection forever. */
  statementTimeoutMs?: number;
}

// Return BIGINT counts as numbers and keep DATE columns as strings: the API serialises
// both as the database holds them, and JS Date on a DATE column shifts by time zone.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

/** pg's own parser of `timestamptz` text (postgres-date), for what {@link parseTimestampTz} does not read itself. */
const parseTimestampTzSlowly = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text') as (text: string) => Date | number | null;

const POWERS_OF_TEN = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000];

/** The value of the two decimal digits at `i`, or NaN when either is not one. */
function twoDigits(text: string, i: number): number {
  const a = text.charCodeAt(i) - 48;
  const b = text.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : NaN;
}

/**
 * A `timestamptz` as PostgreSQL writes it (DateStyle ISO), `2026-11-26 15:33:07.123456+00`
 * (the fraction's 0-6 digits, and the offset's `+HH[:MM[:SS]]` or `-...`, as the session's
 * TimeZone gives them), read by character codes: pg's parser (postgres-date) runs three
 * regular expressions, a split and a `setTime` per value, a visible share of a list's CPU.
 * Gives the Date postgres-date gives, to the millisecond (its arithmetic: the fraction as
 * `1000 * 0.ffffff`, truncated by `Date.UTC`); any other text (a year before 100 or past
 * 9999, BC, infinity, more digits, anything unexpected) goes to postgres-date.
 */
export function parseTimestampTz(text: string): Date | number | null {
  const length = text.length;
  const year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  const hour = twoDigits(text, 11);
  const minute = twoDigits(text, 14);
  const second = twoDigits(text, 17);
  if (
    !(year >= 100) || // also NaN: not four digits
    text.charCodeAt(4) !== 45 || // -
    text.charCodeAt(7) !== 45 ||
    text.charCodeAt(10) !== 32 || // space
    text.charCodeAt(13) !== 58 || // :
    text.charCodeAt(16) !== 58 ||
    !(month >= 1 && month <= 12) ||
    !(day >= 0 && hour >= 0 && minute >= 0 && second >= 0)
  ) {
    return parseTimestampTzSlowly(text);
  }
  let i = 19;
  let ms = 0;
  if (text.charCodeAt(i) === 46) {
    // .
    let fraction = 0;
    let digits = 0;
    for (i += 1; i < length; i += 1) {
      const d = text.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      fraction = fraction * 10 + d;
      digits += 1;
    }
    if (digits === 0 || digits > 6) return parseTimestampTzSlowly(text);
    // As postgres-date computes it (1000 * parseFloat('.ffffff')): the same double, the same truncation.
    ms = 1000 * (fraction / POWERS_OF_TEN[digits]!);
  }
  const sign = text.charCodeAt(i);
  if (sign !== 43 && sign !== 45) return parseTimestampTzSlowly(text); // + or -
  let offset = twoDigits(text, i + 1) * 3600;
  i += 3;
  if (i < length && text.charCodeAt(i) === 58) {
    offset += twoDigits(text, i + 1) * 60;
    i += 3;
    if (i < length && text.charCodeAt(i) === 58) {
      offset += twoDigits(text, i + 1);
      i += 3;
    }
  }
  if (i !== length || !(offset >= 0)) return parseTimestampTzSlowly(text);
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms) - (sign === 45 ? -offset : offset) * 1000);
}

pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, parseTimestampTz);

/** A knex instance on PostgreSQL with a bounded pool. */
export function createDb(connectionString: string, options: DbOptions = {}): Db {
  return knex({
    client: 'pg',
    connection: {
      connectionString,
      statement_timeout: options.statementTimeoutMs ?? 15_000,
      application_name: process.env.SERVICE_NAME ?? 'firewatch',
    },
    pool: { min: options.poolMin ?? 0, max: options.poolMax ?? 10 },
    acquireConnectionTimeout: 10_000,
  });
}
