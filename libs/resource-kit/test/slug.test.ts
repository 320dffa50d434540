import { isUuid, slugCandidate, slugify } from '../src/index.js';

describe('slugs', () => {
  it('slugifies names', () => {
    expect(slugify('Production EU (main)')).toBe('production-eu-main');
    expect(slugify('Ünïcödé  Zone')).toBe('unicode-zone');
    expect(slugify('!!!')).toBe('item');
    expect(slugify('a'.repeat(300))).toHaveLength(100);
  });

  it('numbers the slugs a taken one is tried with (the first free is picked in limits.test.ts)', () => {
    expect([1, 2, 3].map((n) => slugCandidate('prod', n))).toEqual(['prod', 'prod-2', 'prod-3']);
  });

  it('tells UUIDs from slugs', () => {
    expect(isUuid('5f1b0b8e-1c1a-4a8e-9b7a-2f3c4d5e6f70')).toBe(true);
    expect(isUuid('production')).toBe(false);
  });
});
