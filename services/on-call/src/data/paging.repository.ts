import type { Knex } from 'knex';
import { writeEvent } from '@firewatch/events';
import type { Row } from '@firewatch/resource-kit';
import { INSERT_EVENTS, wakeSendJobsOnCommit } from './notification-attempts.repository.js';
import type { PagedUser, PagingRecord, PagingStore } from '../domain/paging/paging.deps.js';
import type { UserRule } from '../domain/paging/paging-steps.js';

const asPaging = (row: Row): PagingRecord => row as unknown as PagingRecord;
/**
 * The team's live users among ids with their notification rules and contact methods, these
 * oldest first: the order that makes the first their primary one, as the API shows it.
 */
const PAGED_USERS = `
  SELECT u.*,
    (SELECT coalesce(json_agg(r), '[]') FROM user_notification_rules r WHERE r.user_id = u.user_id) AS rules,
    (SELECT coalesce(json_agg(e ORDER BY e.created_at, e.id), '[]') FROM user_email_addresses e WHERE e.user_id = u.user_id) AS emails,
    (SELECT coalesce(json_agg(p ORDER BY p.created_at, p.id), '[]') FROM user_phone_numbers p WHERE p.user_id = u.user_id) AS phones
  FROM users u
  WHERE u.team_id = ? AND u.user_id = ANY(?::integer[]) AND u.deleted_at IS NULL`;

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
      // Key-shared now, as the step's writes would take it (their foreign keys) after its paging's lock:
      // an acknowledge holds the alert FOR UPDATE, then waits for that paging (stopAll), a deadlock.
      const { rows } = await (tx as Knex.Transaction).raw<{ rows: Row[] }>('SELECT * FROM alerts WHERE id = ? FOR KEY SHARE SKIP LOCKED', [
        id,
      ]);
      if (rows[0]) return rows[0];
      return (await tx('alerts').where({ id }).first('id')) ? 'busy' : undefined;
    },

    async pagedUsers(tx, teamId, userIds) {
      // One round trip: the users with their rules and contact methods (four reads before).
      const { rows: users } = await (tx as Knex.Transaction).raw<{ rows: (Row & { rules: Row[]; emails: Row[]; phones: Row[] })[] }>(
        PAGED_USERS,
        [teamId, [...userIds]],
      );
      const out = new Map<number, PagedUser>();
      for (const u of users) {
        const id = Number(u.user_id);
        // A rule's null contact id means the user's primary one: their oldest (contacts.primaryIds), the first here.
        const contact = (rows: Row[], key: unknown, column: string) => {
          const row = key ? rows.find((r) => r.id === key) : rows[0];
          return row ? { address: String(row[column]), id: String(row.id) } : null;
        };
        const userRules: UserRule[] = u.rules.map((r) => {
          const email = contact(u.emails, r.user_email_address_id, 'email');
          const sms = contact(u.phones, r.user_sms_number_id, 'phone');
          const call = contact(u.phones, r.user_call_number_id, 'phone');
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

    async writePaging(tx, { pagings, updates, attempts, events }) {
      const t = tx as Knex.Transaction;
      // The attempts' foreign key to a paging inserted here is checked at the statement's end, when both rows are in.
      await t.raw(WRITE_PAGING, [
        JSON.stringify(pagings),
        JSON.stringify([...updates].map(([id, columns]) => ({ ...columns, id }))),
        // The ids again as an array: the pagings' primary key then finds them (the JSON's rows, estimated at 100, were joined by a scan of every paging).
        [...updates.keys()],
        JSON.stringify(attempts.map((a) => ({ ...a, status: 'due' }))),
        JSON.stringify(events),
      ]);
      // One due now wakes the send jobs when this commits, rather than at their next poll.
      if (attempts.some((a) => a.due_at.getTime() <= Date.now())) wakeSendJobsOnCommit(t);
    },
  };
}

/** A changed column of a paging: the one given when the change names it (a JSON null too), else as it was. */
const changed = (column: string, type: string) =>
  `${column} = CASE WHEN v->'${column}' IS NOT NULL THEN (v->>'${column}')::${type} ELSE a.${column} END`;

/** One engine call's writes (PagingStore.writePaging) as one statement, the events last. */
const WRITE_PAGING = `
  WITH new_pagings AS (
    INSERT INTO alert_pagings (id, team_id, alert_id, run, escalation_policy_id, plan, level_index, round, next_step_at, state, stopped_reason)
    SELECT id, team_id, alert_id, run, escalation_policy_id, plan, level_index, round, next_step_at, state, stopped_reason
    FROM json_populate_recordset(NULL::alert_pagings, ?::json)
  ), changed_pagings AS (
    UPDATE alert_pagings a
    SET ${['level_index int', 'round int', 'next_step_at timestamptz', 'state text', 'stopped_reason text']
      .map((c) => changed(...(c.split(' ') as [string, string])))
      .join(', ')}, updated_at = now()
    FROM jsonb_array_elements(?::jsonb) v
    WHERE a.id = (v->>'id')::uuid AND a.id = ANY(?::uuid[])
  ), attempts AS (
    INSERT INTO alert_notification_attempts
      (team_id, alert_id, alert_paging_id, user_id, channel, address, contact_method_id, notification_type, level_position, due_at, status)
    SELECT team_id, alert_id, alert_paging_id, user_id, channel, address, contact_method_id, notification_type, level_position, due_at, status
    FROM json_populate_recordset(NULL::alert_notification_attempts, ?::json)
  )
  ${INSERT_EVENTS}`;
