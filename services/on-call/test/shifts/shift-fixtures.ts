import { DateTime } from 'luxon';
import type { RotationSpec } from '../../src/domain/shifts/index.js';

/** An instant from a wall-clock time in a zone, e.g. at('2026-10-19T09:00', 'Europe/Berlin'). */
export function at(local: string, zone: string): number {
  const dt = DateTime.fromISO(local, { zone });
  if (!dt.isValid) throw new Error(`bad local time ${local}`);
  return dt.toMillis();
}

export const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
export const hours = (s: { starts_at: number; ends_at: number }) => (s.ends_at - s.starts_at) / 3_600_000;

export function rotation(overrides: Partial<RotationSpec> & Pick<RotationSpec, 'type' | 'time_zone' | 'starts_at'>): RotationSpec {
  return {
    id: 'r1',
    schedule_id: 's1',
    position: 1,
    handoff_time: '09:00',
    handoff_day: null,
    shift_length: null,
    shift_length_unit: null,
    ends_at: null,
    members: [1, 2, 3],
    active: null,
    ...overrides,
  };
}
