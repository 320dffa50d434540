import type { Logger } from '@firewatch/logger';
import type { ShiftsDeps } from '../domain/shift-deps.js';
import { startsBetween } from '../domain/shift-started.js';
import { computeShifts, shiftWindow, type OverrideSpec, type RotationSpec, type Shift } from '../domain/shifts/index.js';
import type { ShiftStartsRepository } from '../data/shift-starts.repository.js';

/** Overrides are at most 31 days long: one cutting a shift in the window starts within this of it. */
const OVERRIDE_REACH = 32 * 86_400_000;

export interface ShiftStartedJobOptions {
  shifts: ShiftsDeps;
  store: ShiftStartsRepository;
  logger: Logger;
  /** How often it looks for shifts that began: the most a start waits for its event. */
  intervalMs: number;
  /** After downtime, starts at most this old are still announced (late); older ones never are. */
  catchUpMs: number;
  /** A start announced more than this after it happened is marked late. */
  lateAfterMs: number;
  /** How far behind the watermark each look starts again, for clocks of replicas that disagree. */
  overlapMs: number;
  now?: () => number;
}

/**
 * Emits `shift.started` for every computed shift when it begins. Stateless between ticks:
 * what it announced and how far it looked are in the database (shift_starts,
 * shift_scheduler_state), so a restart catches up from where any replica stopped, and
 * replicas racing on one start leave one row and one event (the row's primary key).
 */
export function createShiftStartedJob(options: ShiftStartedJobOptions) {
  const clock = options.now ?? Date.now;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = true;

  /** Each schedule on its own, so one whose rotation cannot be computed holds up no other team's starts. */
  function shiftsBySchedule(rotations: RotationSpec[], overrides: OverrideSpec[], from: number, to: number): Shift[] {
    const ids = new Set([...rotations.map((r) => r.schedule_id), ...overrides.map((o) => o.schedule_id)]);
    const out: Shift[] = [];
    for (const id of ids) {
      try {
        out.push(...computeShifts({ rotations: rotations.filter((r) => r.schedule_id === id), overrides: overrides.filter((o) => o.schedule_id === id), from, to }));
      } catch (err) {
        options.logger.error('shift.started: the shifts of a schedule could not be computed', { schedule_id: id, err });
      }
    }
    return out;
  }

  async function tick(): Promise<number> {
    const now = clock();
    const watermark = await options.store.checkedUntil();
    // First run ever: nothing was missed, look back only as far as replicas may disagree.
    const after = Math.max(now - options.catchUpMs, (watermark ?? now) - options.overlapMs);
    const schedules = await options.shifts.allSchedules();
    const teamOf = new Map(schedules.map((s) => [s.id, s.team_id]));
    const rotations = await options.shifts.rotations({});
    let window = { from: after, to: now + 1 };
    for (const r of rotations) {
      try {
        const w = shiftWindow([r], after, now + 1);
        window = { from: Math.min(window.from, w.from), to: Math.max(window.to, w.to) };
      } catch { /* reported per schedule below */ }
    }
    const overrides = await options.shifts.overrides({}, window.from - OVERRIDE_REACH, window.to + OVERRIDE_REACH);
    const starts = startsBetween(shiftsBySchedule(rotations, overrides, after, now + 1), teamOf, after, now, options.lateAfterMs);
    const known = await options.store.announced(starts.map((s) => s.key));
    const announced = await options.store.announce(starts.filter((s) => !known.has(s.key)), now);
    if (announced.length) {
      options.logger.info('shift.started announced', { count: announced.length, late: announced.filter((s) => s.late).length });
    }
    await options.store.prune(now - options.catchUpMs - options.overlapMs - 86_400_000);
    return announced.length;
  }

  function loop(delay: number) {
    timer = setTimeout(() => {
      running = tick()
        .catch((err: unknown) => options.logger.error('shift.started scheduler tick failed; retrying next interval', { err }))
        .finally(() => { if (!stopped) loop(options.intervalMs); });
    }, delay);
  }

  return {
    /** One look, as the timer runs it (tests and catch-up). Returns how many starts it announced. */
    tick,
    start() {
      if (!stopped) return;
      stopped = false;
      loop(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

export type ShiftStartedJob = ReturnType<typeof createShiftStartedJob>;
