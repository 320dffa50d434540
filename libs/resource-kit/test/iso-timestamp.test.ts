import { isoTimestamp } from '../src/iso-timestamp.js';

describe('isoTimestamp', () => {
  it('writes every date as toISOString does', () => {
    const edges = [
      0,
      1,
      999,
      86_399_999,
      86_400_000,
      Date.UTC(2000, 1, 29, 23, 59, 59, 999), // a leap day of a year divisible by 400
      Date.UTC(2100, 1, 28, 12), // 2100 is no leap year
      Date.UTC(2100, 2, 1),
      Date.UTC(2024, 11, 31, 23, 59, 59, 999),
      Date.UTC(2025, 0, 1),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(10_000, 0, 1), // six-digit year: toISOString's own
      -1, // before 1970: toISOString's own
      Date.UTC(-1, 0, 1),
      8.64e15,
      -8.64e15,
    ];
    // Random times over 1970-9999, and every day of four years around a leap day.
    const random = Array.from({ length: 200_000 }, () => Math.floor(Math.random() * Date.UTC(10_000, 0, 1)));
    const days = Array.from({ length: 4 * 366 }, (_, i) => Date.UTC(2023, 0, 1) + i * 86_400_000 + (i % 1000) * 3_599_999);
    for (const time of [...edges, ...random, ...days]) {
      const date = new Date(time);
      if (isoTimestamp(date) !== date.toISOString()) expect({ time, iso: isoTimestamp(date) }).toEqual({ time, iso: date.toISOString() });
    }
  });

  it('throws toISOString’s RangeError for an invalid date', () => {
    expect(() => isoTimestamp(new Date(NaN))).toThrow(RangeError);
  });
});
