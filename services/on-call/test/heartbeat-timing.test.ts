import { expiryAfter, intervalMs, isLate, MAX_INTERVAL_MS } from '../src/domain/heartbeats/heartbeat-timing.js';

describe('heartbeat timing', () => {
  it('turns interval and unit into milliseconds', () => {
    expect(intervalMs(5, 'minutes')).toBe(300_000);
    expect(intervalMs(2, 'hours')).toBe(7_200_000);
    expect(intervalMs(1, 'days')).toBe(86_400_000);
    expect(intervalMs(366, 'days')).toBe(MAX_INTERVAL_MS);
  });

  it('expires one interval after the ping', () => {
    const pinged = new Date('2026-11-25T02:00:00Z');
    expect(expiryAfter(pinged, 26, 'hours').toISOString()).toBe('2026-11-26T04:00:00.000Z');
  });

  it('is late only when noticed more than the threshold after it was due', () => {
    const due = new Date('2026-11-25T02:00:00Z');
    expect(isLate(due, due.getTime() + 60_000, 60_000)).toBe(false);
    expect(isLate(due, due.getTime() + 60_001, 60_000)).toBe(true);
  });
});
