import type { Knex } from 'knex';
import { writeEvent, writeEventsIf } from '@firewatch/events';
import type { Row } from '@firewatch/resource-kit';
import type { AlertEventInput, AlertIntakeStore, AlertsInDeps, SourceStore } from '../domain/alerts-in/alerts-in.deps.js';

const JSON_COLUMNS = ['service_ids', 'group_ids', 'functionality_ids', 'environment_ids', 'labels', 'data'];

/** JSON columns as text: the pg driver would write a JS array as a PostgreSQL array. */
function columnsOf(columns: Row): Row {
  const out: Row = { ...columns };
  for (const c of JSON_COLUMNS) if (c in out && out[c] !== null && out[c] !== undefined) out[c] = JSON.stringify(out[c]);
  return out;
}

const quoted = (column: string) => `"${column.replace(/"/g, '""')}"`;

/** `update alerts set ... where id = ?` as raw SQL (with `more` after the id's condition): knex's building cost the intake CPU. */
function updateAlertSql(tx: Knex | Knex.Transaction, id: string, columns: Row, more = '', moreBindings: Knex.Value[] = []): Knex.Raw {
  const values = columnsOf(columns);
  const names = Object.keys(values).filter((c) => values[c] !== undefined);
  return tx.raw(`update alerts set ${names.map((c) => `${quoted(c)} = ?`).join(', ')} where id = ?${more}`, [
    ...names.map((c) => values[c] as Knex.Value),
    id,
    ...moreBindings,
  ]);
}

const EVENT_COLUMNS = ['team_id', 'alert_id', 'kind', 'action', 'source', 'user_id', 'details'] as const;
const EVENT_VALUES = '(?::integer, ?::uuid, ?::text, ?::text, ?::text, ?::integer, ?::text)';
const eventBindings = (events: readonly AlertEventInput[]) => events.flatMap((e) => EVENT_COLUMNS.map((c) => e[c]));

/** The alert events' INSERT, raw SQL; `where` (may be empty) filters the rows inserted. */
function eventsInsert(tx: Knex | Knex.Transaction, events: readonly AlertEventInput[], where = ''): Knex.Raw {
  return tx.raw(
    `insert into alert_events (${EVENT_COLUMNS.join(', ')}) select * from (values ${events.map(() => EVENT_VALUES).join(', ')}) as v (${EVENT_COLUMNS.join(', ')}) ${where}`,
    eventBindings(events),
  );
}

/** The source's `last_received_at`: at most one write a second per source, as a busy source would otherwise update (and lock) its row on every alert. */
const RECEIVED_SQL = `update alert_sources set last_received_at = now() where id = ? and (last_received_at is null or last_received_at < now() - interval '1 second')`;

/** Where an alert's key is unique: its source, or the API; kept when the source is deleted. */
const scopeOf = (sourceId: string | null) => sourceId ?? 'api';

const lockName = (teamId: number, sourceId: string | null, dedup: string) => `alert-key:${teamId}:${sourceId ?? ''}:${dedup}`;

/** An alert event's row (`alert_events.*` are the timeline the API reads), and a key's lock. */
export function createAlertsInRepository(): AlertsInDeps {
  return {
    async recordEvent(tx, event) {
      await tx('alert_events').insert(event);
    },
    async lockKey(tx, teamId, sourceId, dedup) {
      // Two 32-bit halves of one hash: a collision only makes two keys take turns.
      await tx.raw('select pg_advisory_xact_lock(hashtext(?), hashtext(reverse(?)))', [
        lockName(teamId, sourceId, dedup),
        lockName(teamId, sourceId, dedup),
      ]);
    },
    async retriggerRules(tx, teamId) {
      const rules = (await tx('alert_retrigger_rules').where({ team_id: teamId })) as Row[];
      const conditions = rules.length
        ? ((await tx('alert_retrigger_rule_conditions')
            .whereIn(
              'alert_retrigger_rule_id',
              rules.map((r) => r.id as string),
            )
            .orderBy('position')) as Row[])
        : [];
      return rules.map((r) => ({ ...r, conditions: conditions.filter((c) => c.alert_retrigger_rule_id === r.id) }));
    },
    async setRetrigger(tx, alertId, timer) {
      await tx('alerts')
        .where({ id: alertId })
        .update({ retrigger_at: timer?.at ?? null, retrigger_rule_id: timer?.rule_id ?? null });
    },
  };
}

/** The intake's storage: alerts by deduplication key, under a per-key lock. */
export function createAlertIntakeRepository(knex: Knex): AlertIntakeStore {
  return {
    ...createAlertsInRepository(),
    transaction: (work) => knex.transaction(work),
    async lockKeys(tx, teamId, sourceId, keys) {
      // A function scan yields the array's elements in order, each locked as it comes.
      await tx.raw('select pg_advisory_xact_lock(hashtext(k), hashtext(reverse(k))) from unnest(?::text[]) as k', [
        keys.map((key) => lockName(teamId, sourceId, key)),
      ]);
    },
    async openByKey(tx, teamId, sourceId, dedup, options = {}) {
      // Raw SQL: every intake runs it, and knex's building was a fair part of the intake's CPU. With
      // the lock: the key's lock, then the read, in one round trip (migration 20261230-0100 says why a function).
      const { rows } = (await (options.lock
        ? tx.raw('select * from firewatch_lock_open_alert(?, ?, ?, ?)', [
            lockName(teamId, sourceId, dedup),
            teamId,
            scopeOf(sourceId),
            dedup,
          ])
        : tx.raw(
            `select * from alerts where team_id = ? and deduplication_scope = ? and deduplication_key = ? and status <> 'resolved' limit 1 for update`,
            [teamId, scopeOf(sourceId), dedup],
          ))) as { rows: Row[] };
      return rows[0];
    },
    async findOpen(teamId, sourceId, dedup) {
      // No lock, no transaction: what updateIfUnchanged then writes only if the row is still this version (xmin).
      const { rows } = (await knex.raw(
        `select xmin::text as row_version, * from alerts where team_id = ? and deduplication_scope = ? and deduplication_key = ? and status <> 'resolved' limit 1`,
        [teamId, scopeOf(sourceId), dedup],
      )) as { rows: Row[] };
      if (!rows[0]) return undefined;
      const { row_version: version, ...row } = rows[0];
      return { row, version: String(version) };
    },
    async updateIfUnchanged(id, version, columns, event, events, touchSource) {
      // An UPDATE that waited for the row's lock re-checks its condition on the row as committed
      // then: another write in between (a new version, a new xmin) leaves it nothing to update.
      // The statement's answer reads `guard` first, the writes alongside run after it: the alert's
      // row is locked before the source's, the order of an intake's transaction (no deadlock).
      const guard = updateAlertSql(knex, id, columns, ' and xmin = ?::text::xid returning id', [version]);
      const alongside = [
        ...(events.length ? [eventsInsert(knex, events, 'where exists (select from guard)')] : []),
        // Conditional too: a row that changed leaves the source for the transaction that then takes the payload.
        ...(touchSource ? [knex.raw(`${RECEIVED_SQL} and exists (select from guard)`, [touchSource])] : []),
      ];
      return (await writeEventsIf(knex, [event], guard, alongside)) !== null;
    },
    async insertAlert(tx, columns, created) {
      const values: Row = { ...columnsOf(columns), deduplication_scope: scopeOf((columns.alert_source_id as string | null) ?? null) };
      const names = Object.keys(values).filter((c) => values[c] !== undefined && c !== 'short_id');
      // The alert and its `created` event in one round trip (the event's row names the alert's new id). Raw SQL: knex's building cost the intake CPU.
      const { rows } = (await tx.raw(
        `with inserted as (insert into alerts (${names.map(quoted).join(', ')}, short_id)
                           values (${names.map(() => '?').join(', ')}, 'ALR-' || nextval('alerts_short_id_seq')) returning *),
              created as (insert into alert_events (team_id, alert_id, kind, action, source, user_id, details)
                          select ?::integer, inserted.id, ?::text, ?::text, ?::text, ?::integer, ?::text from inserted)
         select * from inserted`,
        [
          ...names.map((c) => values[c] as Knex.Value),
          created.team_id,
          created.kind,
          created.action,
          created.source,
          created.user_id,
          created.details,
        ],
      )) as { rows: Row[] };
      return rows[0];
    },
    async updateAlert(tx, id, columns) {
      const [row] = await tx('alerts').where({ id }).update(columnsOf(columns)).returning('*');
      return row as Row;
    },
    writeEvent: (tx, event, with_ = {}) =>
      writeEvent(tx, event, [
        ...(with_.update ? [updateAlertSql(tx, with_.update.id, with_.update.columns)] : []),
        ...(with_.events?.length ? [eventsInsert(tx, with_.events)] : []),
      ]),
  };
}

/** Sources as ingestion reads them: by id alone, since the source names its team. */
export function createSourceStore(knex: Knex): SourceStore {
  // When this process last wrote each source's last_received_at (bounded): within a second it need not even ask.
  const written = new Map<string, number>();
  const due = (id: string) => {
    const now = Date.now();
    if (now - (written.get(id) ?? 0) < 1000) return false;
    if (written.size >= 10_000) written.clear();
    written.set(id, now);
    return true;
  };
  return {
    due,
    async find(id) {
      // Raw SQL, not built: every payload authenticates by it. (Not a prepared select: the
      // security review's note has those only for scopes without ids.)
      const { rows } = (await knex.raw('select * from alert_sources where id = ?', [id])) as { rows: Row[] };
      return rows[0];
    },
    async received(tx, id, claimed = false) {
      if (claimed || due(id)) await tx.raw(RECEIVED_SQL, [id]);
    },
    async failed(id, message) {
      await knex('alert_sources')
        .where({ id })
        .update({ last_error_at: knex.fn.now(), last_error_message: message.slice(0, 1000) });
    },
  };
}
