import { randomInt } from 'node:crypto';

export const SLUG_PATTERN = /^[a-z0-9_-]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** `Production EU (main)` → `production-eu-main`; never empty. */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/g, '');
  return slug || 'item';
}

/** The `n`th slug a record named `base` may take: `base`, then `base-2`, `base-3`, ... */
export function slugCandidate(base: string, n: number): string {
  return n === 1 ? base : `${base}-${n}`;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * A slug off the sequence {@link slugCandidate} numbers: `base-` and ten random letters
 * (47 bits). Never `base` nor `base-<n>`, so a record holding it makes no probe of the
 * sequence skip a number, and nobody can name it to find out whether it is taken.
 */
export function unlistedSlug(base: string): string {
  return `${base}-${Array.from({ length: 10 }, () => LETTERS[randomInt(LETTERS.length)]).join('')}`;
}
