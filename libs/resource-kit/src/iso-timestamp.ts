const DAY_MS = 86_400_000;
// 10000-01-01T00:00:00Z: from there toISOString writes a six-digit, signed year.
const YEAR_10000_MS = 253_402_300_800_000;

/** The character code of the decimal digit `d` (0-9). */
const digit = (d: number) => 48 + d;

/**
 * `date.toISOString()`, written from its time value by arithmetic: V8's takes some 0.35 µs,
 * this a third of that, and a list answers two per record. Its 24 characters are made
 * into one string at once (String.fromCharCode): a template literal of the parts built
 * some 440 bytes of intermediate strings a timestamp, which JSON.stringify flattened
 * again. Dates before 1970 or from the year 10000 on, and invalid ones (a RangeError),
 * are left to `toISOString`.
 */
export function isoTimestamp(date: Date): string {
  const time = date.getTime();
  if (!(time >= 0 && time < YEAR_10000_MS)) return date.toISOString();
  const days = Math.floor(time / DAY_MS);
  let ms = time - days * DAY_MS;
  // The civil date of a day count (Howard Hinnant's days_from_civil, inverted), in 400-year eras from 0000-03-01.
  const shifted = days + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(ms / 3_600_000);
  ms -= hours * 3_600_000;
  const minutes = Math.floor(ms / 60_000);
  ms -= minutes * 60_000;
  const seconds = Math.floor(ms / 1000);
  ms -= seconds * 1000;
  const century = Math.floor(year / 100);
  const yy = year - century * 100;
  const tenths = Math.floor(ms / 100);
  const hundredths = Math.floor(ms / 10) - tenths * 10;
  return String.fromCharCode(
    digit(Math.floor(century / 10)),
    digit(century % 10),
    digit(Math.floor(yy / 10)),
    digit(yy % 10),
    45, // -
    digit(Math.floor(month / 10)),
    digit(month % 10),
    45,
    digit(Math.floor(day / 10)),
    digit(day % 10),
    84, // T
    digit(Math.floor(hours / 10)),
    digit(hours % 10),
    58, // :
    digit(Math.floor(minutes / 10)),
    digit(minutes % 10),
    58,
    digit(Math.floor(seconds / 10)),
    digit(seconds % 10),
    46, // .
    digit(tenths),
    digit(hundredths),
    digit(ms % 10),
    90, // Z
  );
}
