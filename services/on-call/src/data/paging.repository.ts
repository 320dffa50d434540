import type { Knex } from 'knex';
import { writeEvent } from '@firewatch/events';
import type { Row } from '@firewatch/resource-kit';
import { wakeSendJobsOnCommit } from './notification-attempts.repository.js';
import type { PagedUser, PagingRecord, PagingStore } from '../domain/paging/paging.deps.js';
import type { UserRule } from '../domain/paging/paging-steps.js';

const asPaging = (row: Row): PagingRecord => row as unknown as PagingRecord;
/** A user's contact methods in the order that makes the first their primary one, as the API shows it. */
const OLDEST_FIRST = ['created_at', 'id'];

/**
 * The paging engine's storage: alert_pagings (each paging's durable timer, claimed FOR
 * UPDATE SKIP LOCKED so one replica fires a step) and alert_notification_attempts (sent
 * outside transactions: a claim marks an attempt `sending` with a lease, so a replica that
 * dies mid-send leaves it to another once the lease runs out).
 */
export function createPagingRepository(knex: Knex): PagingStore {
  return {
    transaction: (work) => knex.transaction(work),

    savepoint: (tx, work) => (tx as Knex.Transaction).transaction(work),

    async recordEvent(tx, event) {
      // clock_timestamp, not the transaction's now(): one step's events keep their order on the timeline.
      await tx('alert_events').insert({ ...event, created_at: tx.raw('clock_timestamp()'), updated_at: tx.raw('clock_timestamp()') });
    },

    async writeEvent(tx, event) {
      await writeEvent(tx as Knex.Transaction, event);
    },

    async nextRun(tx, alertId) {
      const row = (await tx('alert_pagings').where({ alert_id: alertId }).max('run as run').first()) as { run: number | null } | undefined;
      return Number(row?.run ?? 0) + 1;
    },

    async insertPaging(tx, paging) {
      const [row] = await tx('alert_pagings')
        .insert({ ...paging, plan: JSON.stringify(paging.plan) })
        .returning('*');
      return asPaging(row as Row);
    },

    async updatePaging(tx, id, columns) {
      if (!Object.keys(columns).length) return;
      await tx('alert_pagings')
        .where({ id })
        .update({ ...columns, updated_at: tx.fn.now() });
    },

    async latestRun(tx, alertId) {
      const rows = (await tx('alert_pagings')
        .where({ alert_id: alertId })
        .andWhere('run', tx('alert_pagings').where({ alert_id: alertId }).max('run'))
        .orderBy('created_at')
        .forUpdate()) as Row[];
      return rows.map(asPaging);
    },

    async stopAll(tx, alertId, reason, at) {
      const pagings = await tx('alert_pagings')
        .where({ alert_id: alertId, state: 'active' })
        .update({ state: 'stopped', stopped_reason: reason, next_step_at: null, updated_at: at });
      // One being sent is cancelled too (its claimed_at kept): its outcome is still recorded, but a
      // failure is not retried, nor is it sent again when its sender died, after paging stopped.
      const notifications = await tx('alert_notification_attempts')
        .where({ alert_id: alertId })
        .whereIn('status', ['due', 'sending'])
        .update({ status: 'cancelled', reason, updated_at: at });
      return { pagings, notifications };
    },

    async claimDue(tx, now, limit) {
      const rows = (await tx('alert_pagings')
        .where({ state: 'active' })
        .andWhere('next_step_at', '<=', now)
        .orderBy('next_step_at')
        .limit(limit)
        .forUpdate()
        .skipLocked()) as Row[];
      return rows.map(asPaging);
    },

    async alert(tx, id) {
      return (await tx('alerts').where({ id }).first()) as Row | undefined;
    },

    async pagedUsers(tx, teamId, userIds) {
      const users = (await tx('users').where({ team_id: teamId }).whereIn('user_id', userIds).whereNull('deleted_at')) as Row[];
      const ids = users.map((u) => Number(u.user_id));
      // One after another: a transaction is one connection, which runs one query at a time
      // (pg queues concurrent ones with a deprecation warning; pg 9 refuses them).
      const rules = (await tx('user_notification_rules').whereIn('user_id', ids)) as Row[];
      const emails = (await tx('user_email_addresses').whereIn('user_id', ids).orderBy(OLDEST_FIRST)) as Row[];
      const phones = (await tx('user_phone_numbers').whereIn('user_id', ids).orderBy(OLDEST_FIRST)) as Row[];
      const out = new Map<number, PagedUser>();
      for (const u of users) {
        const id = Number(u.user_id);
        const mine = <T extends Row>(rows: T[]) => rows.filter((r) => Number(r.user_id) === id);
        // A rule's null contact id means the user's primary one: their oldest (contacts.primaryIds), the first here.
        const contact = (rows: Row[], key: unknown, column: string) => {
          const row = key ? rows.find((r) => r.id === key) : rows[0];
          return row ? { address: String(row[column]), id: String(row.id) } : null;
        };
        const myEmails = mine(emails);
        const myPhones = mine(phones);
        const userRules: UserRule[] = mine(rules).map((r) => {
          const email = contact(myEmails, r.user_email_address_id, 'email');
          const sms = contact(myPhones, r.user_sms_number_id, 'phone');
          const call = contact(myPhones, r.user_call_number_id, 'phone');
          return {
            id: String(r.id),
            delay: Number(r.delay),
            position: Number(r.position),
            notification_type: r.notification_type as UserRule['notification_type'],
            enabled_contact_types: r.enabled_contact_types as string[],
            email: email?.address ?? null,
            email_id: email?.id ?? null,
            sms: sms?.address ?? null,
            sms_id: sms?.id ?? null,
            call: call?.address ?? null,
            call_id: call?.id ?? null,
          };
        });
        out.set(id, {
          user: { user_id: id, name: String(u.name), email: String(u.email), time_zone: (u.time_zone as string | null) ?? 'Etc/UTC' },
          rules: userRules,
        });
      }
      return out;
    },

    async insertAttempts(tx, attempts) {
      await tx('alert_notification_attempts').insert(attempts.map((a) => ({ ...a, status: 'due' })));
      // One due now wakes the send jobs when this commits, rather than at their next poll.
      if (attempts.some((a) => a.due_at.getTime() <= Date.now())) wakeSendJobsOnCommit(tx);
    },
  };
}
