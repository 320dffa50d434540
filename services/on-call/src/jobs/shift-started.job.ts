import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Logger } from '@firewatch/logger';
import type { ShiftsDeps } from '../domain/on-call.deps.js';
import { type ShiftStart, startsBetween } from '../domain/shift-started.js';
import { readRotations } from '../domain/schedules/shift-inputs.js';
import { planShifts } from '../domain/shifts/index.js';
import type { ShiftStartsRepository } from '../data/shift-starts.repository.js';
import { createPeriodicJob } from './periodic-job.js';

/** Schedules read and computed per batch (at most 20 rotations each), the event loop free between batches. */
const SCHEDULE_BATCH = 50;
/**
 * A schedule's look computes, per rotation, the turns around it and the active windows of
 * only the days the look and its edge pieces reach (rotation-shifts.ts piecesNear): about
 * 3 × (2 turns + 2–3 days of windows); 20 rotations of 24 windows a day stay under 5,000.
 */
const WORK_PER_SCHEDULE = 20_000;
/** The watermark is written at least this often (and whenever something is announced). */
const WATERMARK_EVERY = 60_000;
/** How often a tick also sweeps for running shifts never announced. */
const SWEEP_EVERY = 60_000;

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
 * A tick pages through the schedules SCHEDULE_BATCH at a time, reading only rotations
 * that can start a shift in its window, and yields to the event loop between batches.
 */
export function createShiftStartedJob(options: ShiftStartedJobOptions) {
  const clock = options.now ?? Date.now;

  /** The starts in (after, now] of one batch of schedules; a schedule that cannot be computed is logged and holds up no other. */
  async function batchStarts(
    schedules: { id: string; team_id: number }[],
    after: number,
    now: number,
    runningSince?: number,
  ): Promise<ShiftStart[]> {
    const scope = { scheduleIds: schedules.map((s) => s.id) };
    const shifts = await planShifts({
      rotations: await readRotations(options.shifts, { ...scope, live: { from: after, to: now + 1 } }),
      from: after,
      to: now + 1,
      maxWork: WORK_PER_SCHEDULE,
      overrides: (lo, hi) => options.shifts.overrides(scope, lo, hi),
      skipped: options.shifts.skipped,
      // Its starts in this look are not announced (a later sweep announces those still running): say so at error level.
      failed: (id, err) =>
        options.logger.error('shift.started: the shifts of a schedule could not be computed; its starts in this look are not announced', {
          schedule_id: id,
          from: after,
          to: now,
          err,
        }),
    });
    return startsBetween(shifts, new Map(schedules.map((s) => [s.id, s.team_id])), after, now, options.lateAfterMs, runningSince);
  }

  async function tick(): Promise<number> {
    const now = clock();
    const state = await options.store.state();
    const watermark = state?.checkedUntil ?? null;
    // First run ever: nothing was missed, look back only as far as replicas may disagree.
    const after = Math.max(now - options.catchUpMs, (watermark ?? now) - options.overlapMs);
    // About once a minute (last_swept_at, apart from the watermark that every announcing
    // tick moves), shifts running now that began within the catch-up bound, after the
    // scheduler first ran, and were never announced are announced late: they appeared with
    // a start already past (their keys are kept as long, so none is announced twice).
    const sweep = state !== null && (state.lastSweptAt === null || now - state.lastSweptAt > SWEEP_EVERY);
    const runningSince = sweep ? Math.max(now - options.catchUpMs, state!.startedAt) : undefined;
    let announced = 0;
    let late = 0;
    for (let cursor: string | null = null; ;) {
      const schedules = await options.shifts.schedulesAfter(cursor, SCHEDULE_BATCH);
      if (!schedules.length) break;
      cursor = schedules[schedules.length - 1]!.id;
      const starts = await batchStarts(schedules, after, now, runningSince);
      if (starts.length) {
        const known = await options.store.announced(starts.map((s) => s.key));
        const fresh = starts.filter((s) => !known.has(s.key));
        // A swept stint already announced from a later start is not announced again.
        const continuing = await options.store.continuing(
          fresh.filter((s) => s.swept),
          now,
        );
        const mine = await options.store.announce(fresh.filter((s) => !continuing.has(s.key)));
        announced += mine.length;
        late += mine.filter((s) => s.late).length;
      }
      if (schedules.length < SCHEDULE_BATCH) break;
      await yieldToEventLoop();
    }
    if (announced) options.logger.info('shift.started announced', { count: announced, late });
    // The watermark only bounds the next look back (catch-up after downtime), and starts
    // already announced are skipped by key: write it when something was announced, or when
    // it is more than a minute behind, not on every tick of every replica.
    if (announced || watermark === null || now - watermark > WATERMARK_EVERY) {
      await options.store.advance(now);
      await options.store.prune(now - options.catchUpMs - options.overlapMs - 86_400_000);
    }
    if (sweep) await options.store.swept(now);
    return announced;
  }

  return createPeriodicJob({ name: 'shift.started scheduler', intervalMs: options.intervalMs, logger: options.logger, tick });
}

export type ShiftStartedJob = ReturnType<typeof createShiftStartedJob>;
