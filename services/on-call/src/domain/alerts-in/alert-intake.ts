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
  /** The outbox event of `row`, with (one round trip) the alert events and the update that go with it. */
  const announce = (tx: Transaction, teamId: number, action: string, row: Row, with_?: Parameters<AlertIntakeStore['writeEvent']>[2]) =>
    store.writeEvent(tx, { type: `${alerts.event}.${action}`, team_id: teamId, data: serialize(alerts, row) }, with_);

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

    async receive(tx: Transaction, origin: IntakeOrigin, alert: IncomingAlert): Promise<IntakeResult> {
      const existing = alert.deduplication_key ? await openAlert(tx, origin, alert.deduplication_key) : undefined;
      if (existing) {
        const count = Number(existing.received_count) + 1;
        const changes = { received_count: count, updated_at: new Date() };
        // The row as the update leaves it (it holds FOR UPDATE, no trigger touches alerts): the
        // update, its event and the outbox row then go as one statement.
        const row = { ...existing, ...changes };
        const event: AlertEventInput = {
          ...eventOf(origin, String(existing.id)),
          kind: 'informational',
          action: 'updated',
          details: `Received again with deduplication key "${alert.deduplication_key}" (${count} times).`,
        };
        await announce(tx, origin.team_id, 'updated', row, { update: { id: String(existing.id), columns: changes }, events: [event] });
        return { outcome: 'deduplicated', alert: serialize(alerts, row) };
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
      await announce(tx, origin.team_id, 'created', row, { events: joined });
      return { outcome: 'created', alert: serialize(alerts, row) };
    },

    /** Resolves the unresolved alert with `key`; `unmatched` when there is none (already resolved, or never seen). */
    async resolveByKey(tx: Transaction, origin: IntakeOrigin, key: string, details: string | null): Promise<IntakeResult> {
      const existing = await openAlert(tx, origin, key);
      if (!existing) return { outcome: 'unmatched', alert: null };
      const now = new Date();
      const row = await store.updateAlert(tx, String(existing.id), { status: 'resolved', ended_at: now, updated_at: now });
      await store.recordEvent(tx, { ...eventOf(origin, String(existing.id)), kind: 'status_update', action: 'resolved', details });
      await paging?.stop(tx, row, 'resolved', now, { source: origin.source, user_id: origin.user_id });
      await announce(tx, origin.team_id, 'resolved', row);
      return { outcome: 'resolved', alert: serialize(alerts, row) };
    },
  };
}

function eventOf(origin: IntakeOrigin, alertId: string) {
  return { team_id: origin.team_id, alert_id: alertId, source: origin.source, user_id: origin.user_id };
}

export type AlertIntake = ReturnType<typeof createAlertIntake>;
