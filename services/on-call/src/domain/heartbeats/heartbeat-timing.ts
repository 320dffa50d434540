/** The reference's interval units, in milliseconds. */
const UNIT_MS = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 } as const;

export type IntervalUnit = keyof typeof UNIT_MS;
export const INTERVAL_UNITS = Object.keys(UNIT_MS) as IntervalUnit[];

/** The longest interval a heartbeat may have: a year (a longer one is a typo, not a cron job). */
export const MAX_INTERVAL_MS = 366 * UNIT_MS.days;

/** How long a heartbeat waits for its next ping. */
export function intervalMs(interval: number, unit: IntervalUnit): number {
  return interval * UNIT_MS[unit];
}

/** When a heartbeat pinged at `pingedAt` expires. */
export function expiryAfter(pingedAt: Date, interval: number, unit: IntervalUnit): Date {
  return new Date(pingedAt.getTime() + intervalMs(interval, unit));
}

/**
 * Whether an expiry was noticed late: more than `lateAfterMs` after it was due (the job
 * was down, or every replica was), as `shift.started` marks its late starts.
 */
export function isLate(expiresAt: Date, now: number, lateAfterMs: number): boolean {
  return now - expiresAt.getTime() > lateAfterMs;
}

/**
 * What a ping writes: `active` until one interval from `now`; a disabled heartbeat notes
 * the ping and keeps no timer. The same for an API-key ping and a ping URL's.
 */
export function pingColumns(heartbeat: { enabled?: unknown; interval?: unknown; interval_unit?: unknown }, now: Date) {
  const expires = heartbeat.enabled ? expiryAfter(now, Number(heartbeat.interval), heartbeat.interval_unit as IntervalUnit) : null;
  return { status: 'active', last_pinged_at: now, expires_at: expires };
}
