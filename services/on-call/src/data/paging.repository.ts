import type { Knex } from 'knex';
import { writeEvent } from '@firewatch/events';
import type { Row } from '@firewatch/resource-kit';
import type { ClaimedAttempt, PagedUser, PagingRecord, PagingStore } from '../domain/paging/paging.deps.js';
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
      const [rules, emails, phones] = await Promise.all([
        tx('user_notification_rules').whereIn('user_id', ids) as Promise<Row[]>,
        tx('user_email_addresses').whereIn('user_id', ids).orderBy(OLDEST_FIRST) as Promise<Row[]>,
        tx('user_phone_numbers').whereIn('user_id', ids).orderBy(OLDEST_FIRST) as Promise<Row[]>,
      ]);
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
    },

    async claimAttempts(now, limit, leaseMs, maxTries) {
      return knex.transaction(async (tx) => {
        const ids = tx('alert_notification_attempts')
          .select('id')
          .where((q) =>
            q
              .where({ status: 'due' })
              .andWhere('due_at', '<=', now)
              .orWhere((s) => s.where({ status: 'sending' }).andWhere('claimed_at', '<', new Date(now.getTime() - leaseMs))),
          )
          .orderBy('due_at')
          .limit(limit)
          .forUpdate()
          .skipLocked();
        const claimed = (await tx('alert_notification_attempts')
          .whereIn('id', ids)
          .update({ status: 'sending', claimed_at: now, tries: tx.raw('tries + 1'), updated_at: now })
          .returning('*')) as Row[];
        if (!claimed.length) return [];
        const alerts = (await tx('alerts').whereIn('id', [...new Set(claimed.map((a) => a.alert_id as string))])) as Row[];
        const users = (await tx('users').whereIn('user_id', [...new Set(claimed.map((a) => Number(a.user_id)))])) as Row[];
        // Sent where the contact method points now: one changed or deleted since the page is followed, not the address planned.
        const methodIds = (channels: string[]) =>
          claimed.filter((a) => a.contact_method_id && channels.includes(String(a.channel))).map((a) => a.contact_method_id as string);
        const [emails, phones] = await Promise.all([
          tx('user_email_addresses')
            .whereIn('id', methodIds(['email']))
            .select('id', 'email as address') as Promise<Row[]>,
          tx('user_phone_numbers')
            .whereIn('id', methodIds(['sms', 'voice']))
            .select('id', 'phone as address') as Promise<Row[]>,
        ]);
        return claimed.map((a): ClaimedAttempt => {
          const u = users.find((x) => Number(x.user_id) === Number(a.user_id));
          const method = [...emails, ...phones].find((m) => m.id === a.contact_method_id);
          const address = a.contact_method_id ? method?.address : a.channel === 'email' ? u?.email : a.address;
          return {
            ...(a as unknown as ClaimedAttempt),
            address: String(address ?? a.address),
            unreachable:
              !u || u.deleted_at
                ? 'the user was deleted'
                : address
                  ? null
                  : a.contact_method_id
                    ? 'the contact method was deleted'
                    : 'the user has no email address',
            // Only a sender that died mid-send gets past the last try (a failure's retries stop there): not sent again.
            abandoned: Number(a.tries) > maxTries,
            alert: alerts.find((x) => x.id === a.alert_id)!,
            user: {
              user_id: Number(a.user_id),
              name: String(u?.name ?? `user ${String(a.user_id)}`),
              email: String(u?.email ?? ''),
              time_zone: (u?.time_zone as string | null) ?? 'Etc/UTC',
            },
          };
        });
      });
    },

    async finishAttempt(tx, id, outcome, at) {
      const row = (await tx('alert_notification_attempts').where({ id }).forUpdate().first()) as Row | undefined;
      const sending = row?.status === 'sending';
      const stoppedMidSend = row?.status === 'cancelled' && row.claimed_at != null;
      if (!sending && !stoppedMidSend) return null;
      const retryAt = sending && outcome.status === 'failed' ? outcome.retryAt : null;
      await tx('alert_notification_attempts')
        .where({ id })
        .update({
          status: retryAt ? 'due' : stoppedMidSend && outcome.status === 'failed' && outcome.retryAt ? 'cancelled' : outcome.status,
          due_at: retryAt ?? tx.ref('due_at'),
          provider_id: outcome.provider_id ?? null,
          reason: outcome.reason ?? null,
          sent_at: outcome.status === 'sent' ? at : null,
          claimed_at: null,
          updated_at: at,
        });
      return { retryAt };
    },
  };
}
