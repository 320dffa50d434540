/** A user's time zone until one is chosen. */
export const DEFAULT_TIME_ZONE = 'Etc/UTC';

const UTC_NAMES = new Map([
  ['utc', 'UTC'],
  ['etc/utc', 'Etc/UTC'],
]);
// Area/Location (Europe/Berlin, America/Argentina/Buenos_Aires): no offsets (+01:00), no
// legacy abbreviations (EST), which are no place anyone lives.
const ZONE_SHAPE = /^[A-Za-z]+(\/[A-Za-z0-9_+-]+)+$/;
const listed = new Map(Intl.supportedValuesOf('timeZone').map((z) => [z.toLowerCase(), z]));
const canonical = new Set(listed.values());

/**
 * The IANA time zone `name` as stored, or undefined when it is none. A name the
 * runtime lists (`Intl.supportedValuesOf('timeZone')`) takes its listed spelling; UTC is
 * `UTC` or `Etc/UTC`; a current name ICU knows under an older one it lists
 * (`Asia/Kolkata` for `Asia/Calcutta`, `Europe/Kyiv`) is kept as sent, since that is
 * the name people use and every consumer's time zone data resolves it.
 */
export function ianaTimeZone(name: string): string | undefined {
  if (name.length > 64) return undefined;
  const lower = name.toLowerCase();
  const fixed = UTC_NAMES.get(lower) ?? listed.get(lower);
  if (fixed) return fixed;
  if (!ZONE_SHAPE.test(name)) return undefined;
  try {
    return canonical.has(new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone) ? name : undefined;
  } catch {
    return undefined;
  }
}
