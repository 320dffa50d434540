import type { Knex } from 'knex';
import { writeEvent } from '@firewatch/events';
import type { Row } from '@firewatch/resource-kit';
import type { HeartbeatExpiryStore } from '../domain/heartbeats/heartbeat-expiry.js';
import type { HeartbeatPingStore } from '../domain/heartbeats/heartbeat-pings.js';

/** Heartbeats as the expiry job claims and expires them (any team: each row names its own). */
export function createHeartbeatExpiryRepository(): HeartbeatExpiryStore {
  return {
    async claimDue(tx, now, limit) {
      const trx = tx as Knex.Transaction;
      return (await trx('heartbeats')
        .where({ enabled: true, status: 'active' })
        .andWhere('expires_at', '<=', now)
        .orderBy('expires_at')
        .limit(limit)
        .forUpdate()
        .skipLocked()) as Row[];
    },
    async markExpired(tx, id, now) {
      const [row] = await (tx as Knex.Transaction)('heartbeats')
        .where({ id })
        .update({ status: 'expired', updated_at: now })
        .returning('*');
      return row as Row;
    },
    writeEvent: (tx, event) => writeEvent(tx as Knex.Transaction, event),
  };
}

/** Heartbeats as a ping URL finds and pings them (any team: the secret names the heartbeat). */
export function createHeartbeatPingRepository(knex: Knex): HeartbeatPingStore {
  return {
    find: async (id) => (await knex('heartbeats').where({ id }).first()) as Row | undefined,
    transaction: (work) => knex.transaction(work),
    async update(tx, id, columns) {
      const [row] = await (tx as Knex.Transaction)('heartbeats').where({ id }).update(columns).returning('*');
      return row as Row | undefined;
    },
    writeEvent: (tx, event) => writeEvent(tx as Knex.Transaction, event),
  };
}
