import type { Knex } from 'knex';
import type { Row } from '@firewatch/resource-kit';
import type { PagedAttributes, PagedKey, PagedUserAttributes, PagedUsersWanted } from '../domain/alerts-in/alerts-in.deps.js';
import type { EscalationPathPlan } from '../domain/paging/paging.ports.js';

// The compiler holds this copy equal to the domain's PAGED.
const PAGED: PagedKey = '_paged';

/**
 * An alert's paging attributes (`notified_users`, `responders`, `alerting_targets`) for
 * loaded alerts, three reads for any number of them: the users its attempts reached out to
 * (cancelled ones never left), those who acknowledged or resolved it, and what its latest
 * run pages. A user list not `wanted` (a list without its `include`) is neither read nor set.
 */
export function createPagingAttributes(knex: Knex) {
  const none = Promise.resolve([] as Row[]);
  return async (tx: Knex.Transaction | undefined, rows: Row[], wanted: PagedUsersWanted = ALL): Promise<void> => {
    const db = tx ?? knex;
    const ids = rows.map((r) => String(r.id));
    if (!ids.length) return;
    const reads = [
      () =>
        !wanted.notified_users
          ? none
          : (db('alert_notification_attempts')
              .whereIn('alert_id', ids)
              .whereNot({ status: 'cancelled' })
              .groupBy('alert_id', 'user_id')
              .select('alert_id', 'user_id', db.raw('min(created_at) as first_at'))
              .orderBy('first_at') as Promise<Row[]>),
      () =>
        !wanted.responders
          ? none
          : (db('alert_events')
              .whereIn('alert_id', ids)
              .whereIn('action', ['acknowledged', 'resolved'])
              .whereNotNull('user_id')
              .orderBy('created_at')
              .select('alert_id', 'user_id') as Promise<Row[]>),
      () =>
        db('alert_pagings as p')
          .whereIn('p.alert_id', ids)
          .whereRaw('p.run = (select max(q.run) from alert_pagings q where q.alert_id = p.alert_id)')
          .orderBy('p.created_at')
          .select('p.alert_id', 'p.escalation_policy_id', 'p.plan') as Promise<Row[]>,
    ];
    // Outside a transaction the three run at once on the pool's connections; inside one
    // (a write's rows), one after another: a connection runs one query at a time, and pg
    // queues concurrent ones with a deprecation warning (pg 9 refuses them).
    const [notified, responded, pagings] = tx ? await inTurn(reads) : await Promise.all(reads.map((read) => read()));
    const userIds = [...new Set([...notified, ...responded].map((r) => Number(r.user_id)))];
    const users = userIds.length ? ((await db('users').whereIn('user_id', userIds)) as Row[]) : [];
    const shown = new Map(users.map((u) => [Number(u.user_id), userAttributes(u)]));
    const usersOf = (list: Row[], alertId: string) => [
      ...new Map(
        list
          .filter((r) => r.alert_id === alertId && shown.has(Number(r.user_id)))
          .map((r) => [Number(r.user_id), shown.get(Number(r.user_id))!]),
      ).values(),
    ];
    for (const row of rows) {
      const id = String(row.id);
      const paged: PagedAttributes = {
        ...(wanted.notified_users ? { notified_users: usersOf(notified, id) } : {}),
        ...(wanted.responders ? { responders: usersOf(responded, id) } : {}),
        alerting_targets: pagings.filter((p) => p.alert_id === id).map(targetOf),
      };
      row[PAGED] = paged;
    }
  };
}

async function inTurn<T>(reads: (() => Promise<T>)[]): Promise<T[]> {
  const out: T[] = [];
  for (const read of reads) out.push(await read());
  return out;
}

const ALL: PagedUsersWanted = { notified_users: true, responders: true };

const userAttributes = (u: Row): PagedUserAttributes => ({
  id: Number(u.user_id),
  name: String(u.name),
  full_name: String(u.name),
  email: String(u.email),
  time_zone: (u.time_zone as string | null) ?? null,
  created_at: (u.created_at as Date).toISOString(),
  updated_at: (u.updated_at as Date).toISOString(),
});

function targetOf(paging: Row): { id: string; type: string } {
  if (paging.escalation_policy_id) return { id: String(paging.escalation_policy_id), type: 'escalation_policy' };
  const plan = paging.plan as EscalationPathPlan;
  return { id: String(plan.levels[0]?.targets[0]?.id ?? ''), type: 'user' };
}
