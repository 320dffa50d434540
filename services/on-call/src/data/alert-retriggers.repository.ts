import type { Knex } from 'knex';
import { writeEvent } from '@firewatch/events';
import type { Row } from '@firewatch/resource-kit';
import type { AlertEventInput } from '../domain/alerts-in/alerts-in.deps.js';

/** The re-trigger job's storage: due timers on alerts (alerts.retrigger_at), claimed under row locks. */
export function createAlertRetriggersRepository(knex: Knex) {
  return {
    transaction: <T>(work: (tx: Knex.Transaction) => Promise<T>) => knex.transaction(work),

    /**
     * Up to `limit` acknowledged or snoozed (deferred) alerts whose timer is due at `now`, locked until `tx`
     * ends; rows another replica holds are skipped (SKIP LOCKED), so each timer is
     * claimed by one replica, and the status it then writes keeps the next claim off.
     */
    async claimDue(tx: Knex.Transaction, now: Date, limit: number): Promise<Row[]> {
      return (await tx('alerts')
        .whereIn('status', ['acknowledged', 'deferred'])
        .andWhere('retrigger_at', '<=', now)
        .orderBy('retrigger_at')
        .limit(limit)
        .forUpdate()
        .skipLocked()) as Row[];
    },

    /** Triggers the alert again and clears its timer; returns the row as written. */
    async retrigger(tx: Knex.Transaction, id: string, now: Date): Promise<Row> {
      const [row] = await tx('alerts')
        .where({ id })
        .update({ status: 'triggered', retrigger_at: null, retrigger_rule_id: null, updated_at: now })
        .returning('*');
      return row as Row;
    },

    /** Clears due timers of alerts no longer acknowledged or deferred (resolved by a monitoring tool, changed by PATCH). */
    async clearStale(now: Date): Promise<number> {
      return knex('alerts')
        .whereNotIn('status', ['acknowledged', 'deferred'])
        .andWhere('retrigger_at', '<=', now)
        .update({ retrigger_at: null, retrigger_rule_id: null });
    },

    async recordEvent(tx: Knex.Transaction, event: AlertEventInput): Promise<void> {
      await tx('alert_events').insert(event);
    },

    async writeEvent(tx: Knex.Transaction, event: { type: string; team_id: number; data: unknown; occurred_at: Date }): Promise<void> {
      await writeEvent(tx, event);
    },
  };
}

export type AlertRetriggersRepository = ReturnType<typeof createAlertRetriggersRepository>;
