import type { ResourceObject } from '@firewatch/jsonapi';
import { serialize, type AnyResourceDefinition, type Row, type Transaction } from '@firewatch/resource-kit';
import type { AlertGrouping } from './alert-grouping.js';
import type { AlertEventInput, AlertIntakeStore, AlertPagingDeps } from './alerts-in.deps.js';

/** Who an alert came from: a team, the source (null for the API) and the acting user. */
export interface IntakeOrigin {
  team_id: number;
  /** `api`, or the alert source's type. */
  source: string;
  alert_source_id: string | null;
  user_id: number | null;
}

/** An alert as it arrives (POST /v1/alerts, or mapped from a monitoring tool's payload). */
export interface IncomingAlert extends Row {
  summary: string;
  status: 'open' | 'triggered';
  deduplication_key: string | null;
}

export interface IntakeResult {
  outcome: 'created' | 'deduplicated' | 'resolved' | 'unmatched';
  alert: ResourceObject | null;
}

/**
 * Where alerts enter (docs/on-call.md, "Deduplication"): an alert whose key matches an
 * unresolved alert of the same team and source adds a count and an event to it instead of
 * becoming a new alert; a resolved notification resolves that alert. Each key is taken
 * under a lock, so two racing intakes of one key make one alert; everything runs in the
 * caller's transaction with its events, so an answered alert is a committed one. A new
 * alert is then grouped (alert-grouping.ts): it joins a leader or leads its group.
 */
export function createAlertIntake({
  store,
  alerts,
  grouping,
  paging,
}: {
  store: AlertIntakeStore;
  alerts: AnyResourceDefinition;
  grouping: AlertGrouping;
  /** Pages a triggered alert that leads its group or is in none (absent: nothing pages). */
  paging?: AlertPagingDeps;
}) {
  /** The outbox event of `row`, with (one round trip) the alert events and the update that go with it; the alert as answered. */
  async function announce(
    tx: Transaction,
    teamId: number,
    action: string,
    row: Row,
    with_?: Parameters<AlertIntakeStore['writeEvent']>[2],
  ) {
    const data = serialize(alerts, row);
    await store.writeEvent(tx, { type: `${alerts.event}.${action}`, team_id: teamId, data }, with_);
    return data;
  }

  /** A deduplicated alert's update of the open alert `existing`: the row as the update leaves it, and its event. */
  function receivedAgain(origin: IntakeOrigin, existing: Row, key: string) {
    const count = Number(existing.received_count) + 1;
    const changes = { received_count: count, updated_at: new Date() };
    const event: AlertEventInput = {
      ...eventOf(origin, String(existing.id)),
      kind: 'informational',
      action: 'updated',
      details: `Received again with deduplication key "${key}" (${count} times).`,
    };
    // No trigger touches alerts: the row as stored after the update, without reading it back.
    return { row: { ...existing, ...changes }, changes, event };
  }

  /** The join on both timelines: the member names its leader, the leader its new member. */
  function joinEvents(origin: IntakeOrigin, member: Row, leaderId: string): AlertEventInput[] {
    return [
      {
        ...eventOf(origin, String(member.id)),
        kind: 'informational',
        action: 'updated',
        details: `Grouped under leader alert ${leaderId}.`,
      },
      {
        ...eventOf(origin, leaderId),
        kind: 'informational',
        action: 'updated',
        details: `Alert ${String(member.short_id)} (${String(member.id)}) joined this group.`,
      },
    ];
  }

  // The key locks each transaction holds: taken once (lockAll may have taken them before).
  const held = new WeakMap<Transaction, Set<string>>();
  function heldBy(tx: Transaction): Set<string> {
    const locks = held.get(tx) ?? new Set<string>();
    held.set(tx, locks);
    return locks;
  }

  async function openAlert(tx: Transaction, origin: IntakeOrigin, key: string) {
    const locks = heldBy(tx);
    // Not held yet: the lock and the read go as one round trip.
    const open = await store.openByKey(tx, origin.team_id, origin.alert_source_id, key, { lock: !locks.has(key) });
    locks.add(key);
    return open;
  }

  const columnsOf = (origin: IntakeOrigin, alert: IncomingAlert) => ({
    ...alert,
    team_id: origin.team_id,
    source: origin.source,
    alert_source_id: origin.alert_source_id,
    started_at: alert.started_at ?? new Date(),
  });

  return {
    transaction: <T>(work: (tx: Transaction) => Promise<T>) => store.transaction(work),

    /**
     * Takes every lock receiving `alerts` and resolving `keys` would, keys (sorted) before
     * groups (grouping's lockAll): one payload of several alerts took them alert by alert,
     * so two payloads could each hold a key or group lock the other waited for (a deadlock).
     */
    async lockAll(tx: Transaction, origin: IntakeOrigin, keys: string[], alerts: IncomingAlert[]): Promise<void> {
      const locks = heldBy(tx);
      const wanted = [...new Set(keys)].filter((key) => !locks.has(key)).sort();
      // One round trip, the locks taken in the order given.
      if (wanted.length) await store.lockKeys(tx, origin.team_id, origin.alert_source_id, wanted);
      for (const key of wanted) locks.add(key);
      await grouping.lockAll(
        tx,
        origin.team_id,
        alerts.map((a) => columnsOf(origin, a)),
      );
    },

    /**
     * A deduplicated alert without a transaction, the common payload of a monitoring tool: its
     * key's open alert read as committed, then its update, event and outbox row as one
     * statement that writes only if nothing wrote the alert meanwhile — what the key's lock
     * guarantees, at two statements where the transaction took four. Null when the key has no
     * open alert or the alert changed: then `receive` it, in a transaction under the key's lock.
     * `touchSource`: asked once the alert is found; true notes the source's payload in the statement, only if it writes (null answered: the note is the transaction's).
     */
    async receiveAgain(origin: IntakeOrigin, alert: IncomingAlert, touchSource: () => boolean): Promise<IntakeResult | null> {
      const key = alert.deduplication_key;
      if (!key) return null;
      const found = await store.findOpen(origin.team_id, origin.alert_source_id, key);
      if (!found) return null;
      const { row, changes, event } = receivedAgain(origin, found.row, key);
      const data = serialize(alerts, row);
      const outbox = { type: `${alerts.event}.updated`, team_id: origin.team_id, data };
      const touched = touchSource() ? origin.alert_source_id : null;
      const done = await store.updateIfUnchanged(String(found.row.id), found.version, changes, outbox, [event], touched);
      return done ? { outcome: 'deduplicated', alert: data } : null;
    },

    async receive(tx: Transaction, origin: IntakeOrigin, alert: IncomingAlert): Promise<IntakeResult> {
      const existing = alert.deduplication_key ? await openAlert(tx, origin, alert.deduplication_key) : undefined;
      if (existing) {
        // It holds FOR UPDATE: the update, its event and the outbox row go as one statement.
        const { row, changes, event } = receivedAgain(origin, existing, alert.deduplication_key!);
        const data = await announce(tx, origin.team_id, 'updated', row, {
          update: { id: String(existing.id), columns: changes },
          events: [event],
        });
        return { outcome: 'deduplicated', alert: data };
      }
      const columns = columnsOf(origin, alert);
      const placement = await grouping.place(tx, origin.team_id, columns);
      const { team_id, source, user_id } = origin;
      const row = await store.insertAlert(
        tx,
        { ...columns, ...placement },
        { team_id, source, user_id, kind: 'informational', action: 'created', details: null },
      );
      // A member never pages (its leader does): its join events go with the outbox row.
      await paging?.start(tx, row, new Date(), { fresh: true });
      const joined = placement.group_leader_alert_id ? joinEvents(origin, row, placement.group_leader_alert_id) : [];
      return { outcome: 'created', alert: await announce(tx, origin.team_id, 'created', row, { events: joined }) };
    },

    /** Resolves the unresolved alert with `key`; `unmatched` when there is none (already resolved, or never seen). */
    async resolveByKey(tx: Transaction, origin: IntakeOrigin, key: string, details: string | null): Promise<IntakeResult> {
      const existing = await openAlert(tx, origin, key);
      if (!existing) return { outcome: 'unmatched', alert: null };
      const now = new Date();
      const row = await store.updateAlert(tx, String(existing.id), { status: 'resolved', ended_at: now, updated_at: now });
      await store.recordEvent(tx, { ...eventOf(origin, String(existing.id)), kind: 'status_update', action: 'resolved', details });
      await paging?.stop(tx, row, 'resolved', now, { source: origin.source, user_id: origin.user_id });
      return { outcome: 'resolved', alert: await announce(tx, origin.team_id, 'resolved', row) };
    },
  };
}

function eventOf(origin: IntakeOrigin, alertId: string) {
  return { team_id: origin.team_id, alert_id: alertId, source: origin.source, user_id: origin.user_id };
}

export type AlertIntake = ReturnType<typeof createAlertIntake>;
