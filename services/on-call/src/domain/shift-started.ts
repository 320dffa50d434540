import type { Shift } from './shifts/index.js';

/** What announcing one shift start writes: its key, the row remembering it and the event. */
export interface ShiftStart {
  key: string;
  team_id: number;
  shift: Shift;
  /** What the shift comes from (`shiftSource`). */
  source: string;
  late: boolean;
  /** Found by the sweep: running, begun before the look's window. */
  swept: boolean;
  /** The `data` of its shift.started event. */
  event: ShiftStartedData;
}

/**
 * The identity of a shift's start: who starts where and when. Its end is left out, so a
 * shift that a later override shortens is still the same start, announced once.
 */
export function shiftKey(s: Shift): string {
  return [s.schedule_id, shiftSource(s), s.user_id, new Date(s.starts_at).toISOString()].join('|');
}

/** What a shift comes from: `override:<id>` or `rotation:<id>`. */
const shiftSource = (s: Shift): string => (s.override_id ? `override:${s.override_id}` : `rotation:${s.rotation_id}`);

/**
 * The shifts that began in (after, now] and, with `runningSince`, those still running at
 * now that began after it (shifts that appeared with a start already past: an override
 * created for a moment ago, a member added mid-turn): each with its key, late when it
 * began more than `lateAfterMs` before now.
 */
export function startsBetween(
  shifts: readonly Shift[],
  teamOf: ReadonlyMap<string, number>,
  after: number,
  now: number,
  lateAfterMs: number,
  runningSince?: number,
): ShiftStart[] {
  const out: ShiftStart[] = [];
  for (const shift of shifts) {
    const team = teamOf.get(shift.schedule_id);
    if (team === undefined || shift.starts_at > now) continue;
    const running = runningSince !== undefined && shift.starts_at > runningSince && shift.ends_at > now;
    if (shift.starts_at <= after && !running) continue;
    const late = now - shift.starts_at > lateAfterMs;
    out.push({
      key: shiftKey(shift),
      team_id: team,
      shift,
      source: shiftSource(shift),
      late,
      swept: shift.starts_at <= after,
      event: shiftStartedData(shift, late),
    });
  }
  return out;
}

type ShiftStartedData = ReturnType<typeof shiftStartedData>;

/** The `data` of a shift.started event: the shift as GET /v1/shifts serves it, and whether it is announced late. */
function shiftStartedData(s: Shift, late: boolean) {
  return {
    id: s.id,
    type: 'shifts',
    attributes: {
      schedule_id: s.schedule_id,
      rotation_id: s.rotation_id,
      starts_at: new Date(s.starts_at).toISOString(),
      ends_at: new Date(s.ends_at).toISOString(),
      is_override: s.is_override,
      is_shadow: false,
      user_id: s.user_id,
    },
    relationships: {
      shift_override: { data: s.override_id ? { id: s.override_id, type: 'shift_overrides' } : null },
      user: { data: { id: String(s.user_id), type: 'users' } },
      assignee: { data: { id: String(s.user_id), type: 'users' } },
    },
    meta: { late },
  };
}
