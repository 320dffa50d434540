/** Day codes of the reference: Sunday through Saturday (R = Thursday, U = Saturday). */
export type DayCode = 'S' | 'M' | 'T' | 'W' | 'R' | 'F' | 'U';
export const DAY_CODES: readonly DayCode[] = ['S', 'M', 'T', 'W', 'R', 'F', 'U'];

export type RotationType = 'daily' | 'weekly' | 'biweekly' | 'monthly' | 'custom';

/**
 * A local time window of one day, `HH:MM[:SS]`, [start, end). An end at or before the
 * start ends on the next day: stored windows use that only for `00:00`, midnight at the
 * end of the day (they never cross midnight otherwise, schedules/schedule-times.schemas.ts).
 */
export interface TimeWindow {
  start_time: string;
  end_time: string;
}

/** The windows in which a rotation is active, by day of the week; a missing day is inactive. */
export type ActiveWeek = Partial<Record<DayCode, readonly TimeWindow[]>>;

/** A rotation as the engine needs it; instants are epoch milliseconds. */
export interface RotationSpec {
  id: string;
  schedule_id: string;
  /** Lower positions win where rotations of one schedule overlap. */
  position: number;
  type: RotationType;
  /** Local `HH:MM[:SS]` of the handoff (custom hourly: the time its hours count from). */
  handoff_time: string;
  /** Weekly/biweekly: a day code; monthly: first_day_of_month or last_day_of_month. */
  handoff_day?: string | null;
  shift_length?: number | null;
  shift_length_unit?: 'hours' | 'days' | 'weeks' | null;
  /** IANA name; handoffs and active times are wall-clock times there. */
  time_zone: string;
  /** Members take turns from here: the rotation's start_time (or, without one, its creation). */
  starts_at: number;
  ends_at: number | null;
  /** Ordered user ids; a member whose user was deleted keeps its place (its turns stay its, shown deleted). */
  members: readonly number[];
  /** Members (index into `members`) whose user was deleted, and when: their turns that began before stay theirs, cut there. */
  departures?: readonly { index: number; at: number }[];
  /** null: active all the time. */
  active: ActiveWeek | null;
}

export interface OverrideSpec {
  id: string;
  schedule_id: string;
  starts_at: number;
  ends_at: number;
  user_id: number;
  /** Of two overlapping overrides the later-created wins (the greater id on a tie). */
  created_at?: number;
}

/** A final shift: who is on call in a schedule from starts_at until ends_at. */
export interface Shift {
  id: string;
  schedule_id: string;
  rotation_id: string | null;
  override_id: string | null;
  user_id: number;
  starts_at: number;
  ends_at: number;
  is_override: boolean;
}
