import type { Row, Transaction } from '@firewatch/resource-kit';

/** The kinds of alert event written (of the reference's alert_event `kind`); paging adds routing and notifications. */
export const ALERT_EVENT_KINDS = ['informational', 'status_update', 'action', 'note', 'alert_routing', 'notification'] as const;

/** The actions written (of the reference's alert_event `action`); paging's tell each decision (docs/paging.md). */
export const ALERT_EVENT_ACTIONS = [
  'created',
  'updated',
  'acknowledged',
  'resolved',
  'triggered',
  'retriggered',
  'snoozed',
  'escalation_policy_paged',
  'paged',
  'level_skipped',
  'escalated',
  'skipped',
  'emailed',
  'texted',
  'called',
  'notified',
] as const;

/** One entry of an alert's timeline (the reference's alert_event). */
export interface AlertEventInput {
  team_id: number;
  alert_id: string;
  kind: (typeof ALERT_EVENT_KINDS)[number];
  action: (typeof ALERT_EVENT_ACTIONS)[number];
  /** Where the change came from: `api`, or the alert source's type. */
  source: string;
  /** Who: the acting user, null for a team-wide key or a monitoring tool. */
  user_id: number | null;
  /** Why: a resolution message, what a deduplicated payload changed. */
  details: string | null;
}

/**
 * The paging engine as alert writes drive it (paging/paging-engine.ts, docs/paging.md): a
 * triggered alert starts paging, an acknowledged, resolved or snoozed one stops it, in the
 * write's transaction.
 */
export interface AlertPagingDeps {
  /** `fresh`: the alert was inserted in `tx` (nothing of its paging exists yet to stop or count). */
  start(tx: Transaction, alert: Row, at: Date, options?: { fresh?: boolean }): Promise<void>;
  stop(tx: Transaction, alert: Row, why: string, at: Date, actor: { source: string; user_id: number | null }): Promise<void>;
  /** `POST /v1/alerts/{id}/escalate`: pages now, or says why not (pointer and detail of a 422). */
  escalate(
    tx: Transaction,
    alert: Row,
    request: { policyId?: string; level?: number },
    at: Date,
    actor: { source: string; user_id: number | null },
  ): Promise<{ pointer: string; detail: string } | null>;
  /** Adds each loaded alert's paging attributes under {@link PAGED} (notified users, responders, alerting targets). */
  expand(tx: Transaction | undefined, rows: Row[], wanted?: PagedUsersWanted): Promise<void>;
}

/** The row key `expand` puts an alert's paging attributes under. */
export const PAGED = '_paged';

/** {@link PAGED}'s type, for the data layer, which imports only the domain's types: its own copy of the key must equal it. */
export type PagedKey = typeof PAGED;

/**
 * Which user lists `expand` loads (both when absent). The reference shows `notified_users`
 * and `responders` on every answer but lists, and on lists only when `include` names them.
 */
export interface PagedUsersWanted {
  notified_users: boolean;
  responders: boolean;
}

/** An alert's paging attributes; a user list is absent when it was not wanted. */
export interface PagedAttributes {
  notified_users?: PagedUserAttributes[];
  responders?: PagedUserAttributes[];
  alerting_targets: { id: string; type: string }[];
}

/** A user as `notified_users` and `responders` show one (of the reference's user and user_flat_response). */
export interface PagedUserAttributes {
  id: number;
  name: string;
  full_name: string;
  email: string;
  time_zone: string | null;
  created_at: string;
  updated_at: string;
}

/** An alert's columns as the intake writes them (alerts table). */
export type AlertColumns = Row;

/** What alert writes need from storage beyond the kit (`ctx.deps.alertsIn`, and the intake). */
export interface AlertsInDeps {
  recordEvent(tx: Transaction, event: AlertEventInput): Promise<void>;
  /**
   * Waits for, then holds until `tx` ends, the lock of one deduplication key of a team and
   * source, so two intakes of one key (or an intake and a PATCH to that key) take turns;
   * the partial unique index is the backstop.
   */
  lockKey(tx: Transaction, teamId: number, sourceId: string | null, key: string): Promise<void>;
  /** The team's re-trigger rules, each row with its `conditions` as the kit presents them. */
  retriggerRules(tx: Transaction, teamId: number): Promise<Row[]>;
  /** Sets (or with null clears) an alert's re-trigger timer, replacing any earlier one; a snooze's names no rule. */
  setRetrigger(tx: Transaction, alertId: string, timer: { at: Date; rule_id: string | null } | null): Promise<void>;
}

/** The intake's storage (alerts-in.repository.ts implements it). */
export interface AlertIntakeStore extends AlertsInDeps {
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  /** {@link AlertsInDeps.lockKey} of each key, in the order given, in one round trip. */
  lockKeys(tx: Transaction, teamId: number, sourceId: string | null, keys: readonly string[]): Promise<void>;
  /** The unresolved alert with this key, locked FOR UPDATE; `lock`: first takes the key's lock (lockKey), in the same round trip. */
  openByKey(tx: Transaction, teamId: number, sourceId: string | null, key: string, options?: { lock?: boolean }): Promise<Row | undefined>;
  /**
   * The unresolved alert with this key as last committed, read without a lock or a
   * transaction, and its row's `version`, for {@link updateIfUnchanged}.
   */
  findOpen(teamId: number, sourceId: string | null, key: string): Promise<{ row: Row; version: string } | undefined>;
  /**
   * Sets `columns` of the alert read by {@link findOpen} only if its row is still that
   * `version` (nothing wrote it since), with the outbox `event` and the alert `events`, as
   * one statement outside any transaction; false, having written nothing, when the row had
   * changed. `touchSource`: also notes that source's payload (`last_received_at`).
   */
  updateIfUnchanged(
    id: string,
    version: string,
    columns: AlertColumns,
    event: { type: string; team_id: number; data: unknown },
    events: AlertEventInput[],
    touchSource: string | null,
  ): Promise<boolean>;
  /** Inserts the alert and, in the same statement, its `created` event (`created` without the alert's id). */
  insertAlert(tx: Transaction, columns: AlertColumns, created: Omit<AlertEventInput, 'alert_id'>): Promise<Row>;
  updateAlert(tx: Transaction, id: string, columns: AlertColumns): Promise<Row>;
  /**
   * Writes the outbox event and, in the same statement (one round trip), `with`'s alert
   * events (in their order) and its update of one alert (its columns, no row returned).
   */
  writeEvent(
    tx: Transaction,
    event: { type: string; team_id: number; data: unknown },
    with_?: { events?: AlertEventInput[]; update?: { id: string; columns: AlertColumns } },
  ): Promise<unknown>;
}

/** What ingestion needs of a source (by id, any team: the source names its team). */
export interface SourceStore {
  find(id: string): Promise<Row | undefined>;
  /**
   * Notes an accepted payload (`last_received_at`) in the payload's own transaction;
   * `claimed`: {@link due} said true for this payload, whose note was then not written.
   */
  received(tx: Transaction, id: string, claimed?: boolean): Promise<void>;
  /** True when the source's accepted payload is to be noted now (at most once a second), which the caller then does. */
  due(id: string): boolean;
  /** Notes a refused payload and why, shown through the API as `last_error_*`. */
  failed(id: string, message: string): Promise<void>;
}
