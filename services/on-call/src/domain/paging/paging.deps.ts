import type { Row, Transaction } from '@firewatch/resource-kit';
import type { AlertEventInput } from '../alerts-in/alerts-in.deps.js';
import type { EscalationPathPlan, NotificationOutcome, NotificationRequest } from './paging.ports.js';
import type { PagingPosition, UserRule } from './paging-steps.js';

/** One policy (or user) an alert pages in one run: the alert_pagings row. */
export interface PagingRecord extends PagingPosition {
  id: string;
  team_id: number;
  alert_id: string;
  run: number;
  escalation_policy_id: string | null;
  plan: EscalationPathPlan;
  next_step_at: Date | null;
  state: 'active' | 'stopped' | 'ended';
}

/** A paged user as notifications reach them: the account, and their notification rules with addresses. */
export interface PagedUser {
  user: NotificationRequest['user'];
  rules: UserRule[];
}

/** A notification attempt to make: an alert_notification_attempts row before it is written. */
export interface AttemptInput {
  team_id: number;
  alert_id: string;
  alert_paging_id: string;
  user_id: number;
  channel: NotificationRequest['channel'];
  address: string;
  contact_method_id: string | null;
  notification_type: NotificationRequest['notification_type'];
  level_position: number | null;
  due_at: Date;
}

/** A claimed attempt with what sending needs. */
export interface ClaimedAttempt extends AttemptInput {
  id: string;
  tries: number;
  /** Why it is not sent (its user or contact method deleted since it was planned); null to send it. */
  unreachable: string | null;
  /** Its senders died mid-send on every try it had: given up unsent (it may have been sent, unrecorded). */
  abandoned: boolean;
  alert: Row;
  user: NotificationRequest['user'];
}

/** The paging engine's storage (data/paging.repository.ts). */
export interface PagingStore {
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  /** Runs `work` in a savepoint of `tx`: when it throws, what it wrote is undone and `tx` goes on. */
  savepoint<T>(tx: Transaction, work: (tx: Transaction) => Promise<T>): Promise<T>;
  /** An alert event; events of one transaction keep the order they were written in. */
  recordEvent(tx: Transaction, event: AlertEventInput): Promise<void>;
  writeEvent(tx: Transaction, event: { type: string; team_id: number; data: unknown; occurred_at?: Date }): Promise<void>;
  /** The alert's next run number (1 for its first paging). */
  nextRun(tx: Transaction, alertId: string): Promise<number>;
  updatePaging(tx: Transaction, id: string, columns: PagingUpdate): Promise<void>;
  /** The pagings of the alert's latest run, locked until `tx` ends, oldest first. */
  latestRun(tx: Transaction, alertId: string): Promise<PagingRecord[]>;
  /** Stops the alert's active pagings and cancels its due notifications; how many of each. */
  stopAll(tx: Transaction, alertId: string, reason: string, at: Date): Promise<{ pagings: number; notifications: number }>;
  /** Up to `limit` active pagings due at `now`, locked (SKIP LOCKED: one replica each) until `tx` ends. */
  claimDue(tx: Transaction, now: Date, limit: number): Promise<PagingRecord[]>;
  /** The alert, key-shared until `tx` ends; `busy` while a writer holds it FOR UPDATE (an acknowledge), not waited for. */
  alert(tx: Transaction, id: string): Promise<Row | 'busy' | undefined>;
  /** The team's live users among `userIds` with their notification rules. */
  pagedUsers(tx: Transaction, teamId: number, userIds: readonly number[]): Promise<Map<number, PagedUser>>;
  /** One engine call's writes (paging-writes.ts) in one statement, the events in their order. */
  writePaging(tx: Transaction, writes: PagingWrites): Promise<void>;
}

/** Columns of a paging to change. */
export type PagingUpdate = Partial<Omit<PagingRecord, 'id' | 'plan'>> & { stopped_reason?: string };

/** What one engine call writes: new pagings (as they end up), changes to earlier ones by id, attempts, events in order. */
export interface PagingWrites {
  pagings: (PagingRecord & { stopped_reason?: string })[];
  updates: Map<string, PagingUpdate>;
  attempts: AttemptInput[];
  events: AlertEventInput[];
}

/** A sent (or failed, or skipped) attempt's outcome to record; a failure is due again at `retryAt`. */
export interface AttemptFinish {
  id: string;
  outcome: NotificationOutcome;
  retryAt: Date | null;
  /** When its channel answered. */
  at: Date;
}

/** The notification send job's storage (data/notification-attempts.repository.ts). */
export interface NotificationAttemptStore {
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  /**
   * Takes up to `limit` due attempts (and ones whose sender's lease ran out) to send, each by
   * one replica; one past `maxTries` is `abandoned`.
   */
  claimAttempts(now: Date, limit: number, leaseMs: number, maxTries: number): Promise<ClaimedAttempt[]>;
  /**
   * Records the outcomes of attempts being sent, locking their rows: `finished` has those
   * recorded, not those no longer being sent (cancelled before they were claimed, or finished
   * by another replica). A failure is due again at its `retryAt`, unless paging stopped while
   * it was sent (retryAt null in `finished` then). With `skipLocked`, rows another transaction
   * holds are left alone and listed in `busy`, for the caller to finish waiting on them.
   * `timeline` gives the alert events of those finished, inserted in its order (each row its
   * own clock_timestamp) by the statement that finishes them.
   */
  finishAttempts(
    tx: Transaction,
    finishes: AttemptFinish[],
    options: { skipLocked: boolean; timeline(finished: Map<string, { retryAt: Date | null }>): AlertEventInput[] },
  ): Promise<{ finished: Map<string, { retryAt: Date | null }>; busy: string[] }>;
  writeEvents(tx: Transaction, events: { type: string; team_id: number; data: unknown; occurred_at?: Date }[]): Promise<void>;
}

export type { NotificationOutcome };
