import type { Knex } from 'knex';
import { afterCommit, writeEvents } from '@firewatch/events';
import type { Row } from '@firewatch/resource-kit';
import type { ClaimedAttempt, NotificationAttemptStore } from '../domain/paging/paging.deps.js';

const sendJobs = new Set<() => void>();
const wakeSendJobs = () => sendJobs.forEach((wake) => wake());

/**
 * Calls `wake` when a transaction of this process commits an attempt due now
 * (paging.repository.ts's writePaging), rather than at the send job's next poll;
 * returns the unsubscribe. In-process and not a NOTIFY: PostgreSQL commits notifying
 * transactions one at a time (afterCommit in @firewatch/events), and the intake that pages
 * runs in the replica whose send job then sends. The poll covers what other replicas commit.
 */
export function onAttemptsDue(wake: () => void): () => void {
  sendJobs.add(wake);
  return () => sendJobs.delete(wake);
}

/** Wakes this process's send jobs once `tx` has committed. */
export function wakeSendJobsOnCommit(tx: Knex.Transaction): void {
  if (sendJobs.size) afterCommit(tx, wakeSendJobs);
}

/**
 * Inserts the alert events of a JSON array (the statement's last binding) in its order, each
 * at its own clock_timestamp, as one at a time would be, plus its place in microseconds: two
 * rows made in one microsecond keep their order on the timeline (sorted by created_at) too.
 * The tail of a statement whose CTEs make the other writes.
 */
export const INSERT_EVENTS = `
  INSERT INTO alert_events (team_id, alert_id, kind, action, details, source, user_id, created_at, updated_at)
  SELECT team_id, alert_id, kind, action, details, source, user_id, at, at
  FROM (
    SELECT e.*, clock_timestamp() + (e.ordinality - 1) * interval '1 microsecond' AS at
    FROM json_populate_recordset(NULL::alert_events, ?::json) WITH ORDINALITY AS e
  ) ordered`;

/**
 * The send side of alert_notification_attempts (notification-send.job.ts): claims take
 * due attempts (and ones whose sender's lease ran out) `sending` in one statement, and a
 * batch of outcomes is recorded with one statement per table, so a page costs few round
 * trips on the pool the intake shares.
 */
export function createNotificationAttemptsRepository(knex: Knex): NotificationAttemptStore {
  return {
    transaction: (work) => knex.transaction(work),

    async claimAttempts(now, limit, leaseMs, maxTries) {
      // One statement (atomic on its own): the claim, the user, where the contact method points now, and the
      // alert (as JSON: what messages read of it are its text columns and id). Without its payload (`data`,
      // `labels`, up to the ingest's 512 KB), which no message reads: a row an attempt, 100 attempts of one
      // alert read it 100 times (40 MB a claim for a 400 KB payload).
      const { rows: claimed } = (await knex.raw(
        `WITH picked AS (
           SELECT id FROM alert_notification_attempts
           WHERE (status = 'due' AND due_at <= :now) OR (status = 'sending' AND claimed_at < :expired)
           ORDER BY due_at LIMIT :limit FOR UPDATE SKIP LOCKED
         ), claimed AS (
           UPDATE alert_notification_attempts a
           SET status = 'sending', claimed_at = :now, tries = a.tries + 1, updated_at = :now
           FROM picked WHERE a.id = picked.id RETURNING a.*
         )
         SELECT c.*, u.user_id AS u_id, u.name AS u_name, u.email AS u_email, u.time_zone AS u_time_zone,
                u.deleted_at AS u_deleted_at,
                CASE WHEN c.channel = 'email' THEN e.email ELSE p.phone END AS method_address,
                to_jsonb(al) - 'data' - 'labels' AS alert_row
         FROM claimed c
         LEFT JOIN alerts al ON al.id = c.alert_id
         LEFT JOIN users u ON u.user_id = c.user_id
         LEFT JOIN user_email_addresses e ON c.channel = 'email' AND e.id = c.contact_method_id
         LEFT JOIN user_phone_numbers p ON c.channel IN ('sms', 'voice') AND p.id = c.contact_method_id
         ORDER BY c.due_at`,
        { now, expired: new Date(now.getTime() - leaseMs), limit },
      )) as { rows: Row[] };
      return claimed.map((row): ClaimedAttempt => {
        const { u_id, u_name, u_email, u_time_zone, u_deleted_at, method_address, alert_row, ...a } = row;
        const found = u_id != null;
        // Sent where the contact method points now: one changed or deleted since the page is followed, not the address planned.
        const address = a.contact_method_id ? method_address : a.channel === 'email' ? u_email : a.address;
        return {
          ...(a as unknown as ClaimedAttempt),
          address: String(address ?? a.address),
          unreachable:
            !found || u_deleted_at
              ? 'the user was deleted'
              : address
                ? null
                : a.contact_method_id
                  ? 'the contact method was deleted'
                  : 'the user has no email address',
          // Only a sender that died mid-send gets past the last try (a failure's retries stop there): not sent again.
          abandoned: Number(a.tries) > maxTries,
          alert: alert_row as Row,
          user: {
            user_id: Number(a.user_id),
            name: String(u_name ?? `user ${String(a.user_id)}`),
            email: String(u_email ?? ''),
            time_zone: (u_time_zone as string | null) ?? 'Etc/UTC',
          },
        };
      });
    },

    async finishAttempts(tx, finishes, { skipLocked, timeline }) {
      const t = tx as Knex.Transaction;
      const byId = new Map(finishes.map((f) => [f.id, f]));
      // Their alerts first, key-shared, as an acknowledge takes them (its alert FOR UPDATE, then
      // its attempts): taking the attempts first, the timeline events inserted below then needed
      // the alert an acknowledge held while it waited for these attempts, a deadlock. One
      // statement: the alerts' array is an init plan, read whole (locking them in id order)
      // before the scan of the attempts yields a row to lock.
      // Skipped (held) alerts leave their attempts busy, recorded alone once the acknowledge
      // commits. Attempts are locked in id order: two transactions finishing overlapping
      // batches never wait on each other in a cycle.
      const skip = skipLocked ? ' SKIP LOCKED' : '';
      const { rows } = (await t.raw(
        `WITH held AS MATERIALIZED (
           SELECT id FROM alerts WHERE id IN (SELECT alert_id FROM alert_notification_attempts WHERE id = ANY(?::uuid[]))
           ORDER BY id FOR KEY SHARE${skip}
         )
         SELECT n.id, n.status, n.claimed_at FROM alert_notification_attempts n
         WHERE n.id = ANY(?::uuid[]) AND n.alert_id = ANY(ARRAY(SELECT id FROM held))
         ORDER BY n.id FOR UPDATE OF n${skip}`,
        [[...byId.keys()], [...byId.keys()]],
      )) as { rows: Row[] };
      const busy = new Set(byId.keys());
      const finished = new Map<string, { retryAt: Date | null }>();
      const updates: {
        id: string;
        status: string;
        due_at: Date | null;
        provider_id: string | null;
        reason: string | null;
        sent_at: Date | null;
        at: Date;
      }[] = [];
      for (const row of rows) {
        const id = String(row.id);
        busy.delete(id);
        const { outcome, retryAt: asked, at } = byId.get(id)!;
        const sending = row.status === 'sending';
        const stoppedMidSend = row.status === 'cancelled' && row.claimed_at != null;
        if (!sending && !stoppedMidSend) continue;
        const retryAt = sending && outcome.status === 'failed' ? asked : null;
        updates.push({
          id,
          status: retryAt ? 'due' : stoppedMidSend && outcome.status === 'failed' && asked ? 'cancelled' : outcome.status,
          due_at: retryAt,
          provider_id: outcome.provider_id ?? null,
          reason: outcome.reason ?? null,
          sent_at: outcome.status === 'sent' ? at : null,
          at,
        });
        finished.set(id, { retryAt });
      }
      if (updates.length) {
        const column = <K extends keyof (typeof updates)[number]>(key: K) => updates.map((u) => u[key]);
        // The outcomes and their timeline events in one statement (they were a round trip each).
        await t.raw(
          `WITH finished AS (
             UPDATE alert_notification_attempts a
             SET status = v.status, due_at = coalesce(v.due_at, a.due_at), provider_id = v.provider_id, reason = v.reason,
                 sent_at = v.sent_at, claimed_at = NULL, updated_at = v.at
             FROM unnest(?::uuid[], ?::text[], ?::timestamptz[], ?::text[], ?::text[], ?::timestamptz[], ?::timestamptz[])
               AS v(id, status, due_at, provider_id, reason, sent_at, at)
             WHERE a.id = v.id
           )
           ${INSERT_EVENTS}`,
          [
            column('id'),
            column('status'),
            column('due_at'),
            column('provider_id'),
            column('reason'),
            column('sent_at'),
            column('at'),
            JSON.stringify(timeline(finished)),
          ] as unknown as Knex.RawBinding[],
        );
      }
      // Waiting for locks, a row not found is gone (its alert deleted): nothing to record, as for one finished elsewhere.
      return { finished, busy: skipLocked ? [...busy] : [] };
    },

    async writeEvents(tx, events) {
      await writeEvents(tx as Knex.Transaction, events);
    },
  };
}
