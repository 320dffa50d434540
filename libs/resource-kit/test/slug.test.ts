import { firstFreeSlug, isUuid, slugify } from '../src/index.js';

describe('slugs', () => {
  it('slugifies names', () => {
    expect(slugify('Production EU (main)')).toBe('production-eu-main');
    expect(slugify('Ünïcödé  Zone')).toBe('unicode-zone');
    expect(slugify('!!!')).toBe('item');
    expect(slugify('a'.repeat(300))).toHaveLength(100);
  });

  it('picks the first free suffix', () => {
    expect(firstFreeSlug('prod', [])).toBe('prod');
    expect(firstFreeSlug('prod', ['prod', 'prod-2'])).toBe('prod-3');
  });

  it('tells UUIDs from slugs', () => {
    expect(isUuid('5f1b0b8e-1c1a-4a8e-9b7a-2f3c4d5e6f70')).toBe(true);
    expect(isUuid('production')).toBe(false);
  });
});
