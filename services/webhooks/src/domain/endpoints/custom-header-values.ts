import type { ValidationIssue } from '@firewatch/errors';
import type { CustomHeader } from './custom-headers.js';
import type { SecretBox } from '@firewatch/secret-box';

/**
 * A custom header as stored in `webhooks_endpoints.custom_headers`: the value sealed
 * with the SecretBox plus the hint shown in reads. `{name, value}` is the plain form
 * rows had before values were sealed; start-up converts those (see
 * `sealPlainHeaderValues`) and every reader still accepts them until then.
 */
export type StoredCustomHeader = { name: string; sealed: string; hint: string } | { name: string; value: string };

const MASK = '****';
// Below this length the last four characters would give away too much of the value.
const HINT_MIN_LENGTH = 12;
/** What a client echoing a read back sends: `****` and at most four more characters. */
const MASK_SHAPE = /^\*{4}[\s\S]{0,4}$/;

function hintOf(value: string): string {
  return value.length >= HINT_MIN_LENGTH ? value.slice(-4) : '';
}

function maskOf(header: StoredCustomHeader): string {
  return MASK + ('sealed' in header ? header.hint : hintOf(header.value));
}

/** The headers as reads and events show them: names kept, values `****` + last 4 characters. */
export function maskHeaderValues(stored: readonly StoredCustomHeader[] | null | undefined): CustomHeader[] {
  return (stored ?? []).map((h) => ({ name: h.name, value: maskOf(h) }));
}

function sameName(headers: readonly StoredCustomHeader[] | undefined, name: string): StoredCustomHeader | undefined {
  return headers?.find((h) => h.name.toLowerCase() === name.toLowerCase());
}

/** True when `value` is what reads show for the stored header of the same name: keep that value. */
function keepsStored(existing: readonly StoredCustomHeader[] | undefined, header: CustomHeader): StoredCustomHeader | undefined {
  const stored = sameName(existing, header.name);
  return stored && maskOf(stored) === header.value ? stored : undefined;
}

/**
 * A value shaped like a mask that is not the mask of the current value of that header
 * would store the mask itself as the credential: refused, so a client never
 * overwrites a credential with asterisks by accident.
 */
export function headerValueIssues(incoming: readonly CustomHeader[], existing?: readonly StoredCustomHeader[]): ValidationIssue[] {
  return incoming.flatMap((h, i) =>
    MASK_SHAPE.test(h.value) && !keepsStored(existing, h)
      ? [
          {
            pointer: `/data/attributes/custom_headers/${i}/value`,
            detail: 'is a masked value that does not match the current value of this header; send the real value',
          },
        ]
      : [],
  );
}

/**
 * The stored form of `incoming`: each value sealed, except that a value equal to the
 * mask of the stored header of the same name (case-insensitive) keeps the stored value,
 * so a PUT of what a GET returned changes nothing.
 */
export function sealHeaderValues(
  incoming: readonly CustomHeader[],
  existing: readonly StoredCustomHeader[] | undefined,
  box: SecretBox,
): StoredCustomHeader[] {
  return incoming.map((h) => {
    const kept = keepsStored(existing, h);
    if (kept) return 'sealed' in kept ? { name: h.name, sealed: kept.sealed, hint: kept.hint } : seal(h.name, kept.value, box);
    return seal(h.name, h.value, box);
  });
}

function seal(name: string, value: string, box: SecretBox): StoredCustomHeader {
  return { name, sealed: box.seal(value), hint: hintOf(value) };
}

/** The clear headers, for the dispatcher's request only. @throws when a value was sealed with an unknown key. */
export function openHeaderValues(stored: readonly StoredCustomHeader[] | null | undefined, box: SecretBox): CustomHeader[] {
  return (stored ?? []).map((h) => ({ name: h.name, value: 'sealed' in h ? box.open(h.sealed) : h.value }));
}

/** True when some value is still in the plain (pre-encryption) form. */
function hasPlainValues(stored: readonly StoredCustomHeader[]): boolean {
  return stored.some((h) => !('sealed' in h));
}

/** Seals the plain values, keeping the sealed ones as they are. */
function sealPlainValues(stored: readonly StoredCustomHeader[], box: SecretBox): StoredCustomHeader[] {
  return stored.map((h) => ('sealed' in h ? h : seal(h.name, h.value, box)));
}

/** The endpoints whose stored headers may still hold a plain value (data/plain-header-values.store.ts). */
export interface PlainHeaderValuesStore {
  /**
   * Passes the headers of each such endpoint to `rewrite`, a batch at a time with the
   * rows locked, and stores what it returns (nothing when it returns undefined).
   * @returns how many endpoints it passed.
   */
  rewrite(rewrite: (stored: StoredCustomHeader[]) => StoredCustomHeader[] | undefined): Promise<number>;
}

/**
 * Seals custom header values stored in clear before values were encrypted. A SQL
 * migration cannot do it (the key is not in the database), so both processes call this
 * at start-up, after the migrations. Until a row is converted its plain values are
 * still masked in reads and sent as they are.
 *
 * @returns how many endpoints were converted.
 */
export function sealPlainHeaderValues(store: PlainHeaderValuesStore, box: SecretBox): Promise<number> {
  return store.rewrite((stored) => (hasPlainValues(stored) ? sealPlainValues(stored, box) : undefined));
}
