import type { Knex } from 'knex';
import { writeEvents } from '@firewatch/events';
import type { ShiftStart } from '../domain/shift-started.js';

const STATE = 'shift.started';
const ANNOUNCE_CHUNK = 500;

/** The scheduler's memory: announced starts (one row per key) and how far it has looked. */
export function createShiftStartsRepository(knex: Knex) {
  return {
    /** How far the scheduler has looked, when it first looked and last swept (null: never); null before its first look. */
    async state(): Promise<{ checkedUntil: number; startedAt: number; lastSweptAt: number | null } | null> {
      const row = await knex('shift_scheduler_state').where({ name: STATE }).first('checked_until', 'started_at', 'last_swept_at');
      return row
        ? {
            checkedUntil: (row.checked_until as Date).getTime(),
            startedAt: (row.started_at as Date).getTime(),
            lastSweptAt: row.last_swept_at ? (row.last_swept_at as Date).getTime() : null,
          }
        : null;
    },

    /** Records a sweep for running shifts never announced (never moved back). */
    async swept(at: number): Promise<void> {
      await knex('shift_scheduler_state')
        .where({ name: STATE })
        .update({ last_swept_at: knex.raw('GREATEST(coalesce(last_swept_at, ?), ?)', [new Date(at), new Date(at)]) });
    },

    /**
     * Keys of the swept starts whose stint was already announced: the same schedule,
     * source and user had a start announced between the shift's start and `now` (its
     * start moved earlier, e.g. an override before it deleted; the key differs).
     */
    async continuing(starts: readonly ShiftStart[], now: number): Promise<Set<string>> {
      const out = new Set<string>();
      for (const s of starts) {
        const row = await knex('shift_starts')
          .where({ schedule_id: s.shift.schedule_id, source: s.source, user_id: s.shift.user_id })
          .whereBetween('starts_at', [new Date(s.shift.starts_at), new Date(now)])
          .first('shift_key');
        if (row) out.add(s.key);
      }
      return out;
    },

    /** Keys among `keys` already announced. */
    async announced(keys: readonly string[]): Promise<Set<string>> {
      const out = new Set<string>();
      for (let i = 0; i < keys.length; i += 1000) {
        const rows: { shift_key: string }[] = await knex('shift_starts')
          .whereIn('shift_key', keys.slice(i, i + 1000))
          .select('shift_key');
        for (const r of rows) out.add(r.shift_key);
      }
      return out;
    },

    /**
     * Announces the starts no one announced yet, ANNOUNCE_CHUNK to a transaction: a row per
     * key (another replica inserting the same key first wins; ours is skipped) and an outbox
     * event for each row this call inserted. A long catch-up holds no transaction (and no
     * outbox lock) for long; a chunk that commits stays announced if a later one fails.
     * Returns the starts this call announced.
     */
    async announce(starts: readonly ShiftStart[]): Promise<ShiftStart[]> {
      const mine: ShiftStart[] = [];
      for (let i = 0; i < starts.length; i += ANNOUNCE_CHUNK) {
        const chunk = starts.slice(i, i + ANNOUNCE_CHUNK);
        await knex.transaction(async (trx) => {
          const inserted: { shift_key: string }[] = await trx('shift_starts')
            .insert(
              chunk.map((s) => ({
                shift_key: s.key,
                team_id: s.team_id,
                schedule_id: s.shift.schedule_id,
                source: s.source,
                shift_id: s.shift.id,
                user_id: s.shift.user_id,
                starts_at: new Date(s.shift.starts_at),
                late: s.late,
              })),
            )
            .onConflict('shift_key')
            .ignore()
            .returning('shift_key');
          const keys = new Set(inserted.map((r) => r.shift_key));
          const fresh = chunk.filter((s) => keys.has(s.key));
          await writeEvents(
            trx,
            fresh.map((s) => ({ type: 'shift.started', team_id: s.team_id, data: s.event, occurred_at: new Date(s.shift.starts_at) })),
          );
          mine.push(...fresh);
        });
      }
      return mine;
    },

    /** Moves the watermark forward (never back). */
    async advance(checkedUntil: number): Promise<void> {
      await knex.raw(
        `INSERT INTO shift_scheduler_state (name, checked_until, started_at) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET checked_until = GREATEST(shift_scheduler_state.checked_until, EXCLUDED.checked_until)`,
        [STATE, new Date(checkedUntil), new Date(checkedUntil)],
      );
    },

    /** Forgets starts older than any window the scheduler still looks at. */
    async prune(before: number): Promise<number> {
      return knex('shift_starts').where('starts_at', '<', new Date(before)).delete();
    },
  };
}

export type ShiftStartsRepository = ReturnType<typeof createShiftStartsRepository>;
