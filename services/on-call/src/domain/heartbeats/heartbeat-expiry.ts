import { serialize, type AnyResourceDefinition, type Row, type Transaction } from '@firewatch/resource-kit';
import type { AlertIntake } from '../alerts-in/alert-intake.js';
import { isLate } from './heartbeat-timing.js';

/** The expiry job's storage (data/heartbeats.repository.ts). */
export interface HeartbeatExpiryStore {
  /** Up to `limit` enabled, active heartbeats due by `now`, locked FOR UPDATE SKIP LOCKED: another replica skips them. */
  claimDue(tx: Transaction, now: Date, limit: number): Promise<Row[]>;
  markExpired(tx: Transaction, id: string, now: Date): Promise<Row>;
  writeEvent(tx: Transaction, event: { type: string; team_id: number; data: unknown; occurred_at: Date }): Promise<unknown>;
}

/**
 * Expires the heartbeats due by `now`, one batch in one transaction: each raises one
 * alert through the intake `POST /v1/alerts` uses (source `heartbeat`, the heartbeat's
 * summary, urgency and target), becomes `expired` and emits `heartbeat.expired`. The row
 * lock and the status change commit together, so a racing replica either skipped the row
 * or finds it expired: one alert per expiry. Returns what it expired.
 */
export function createHeartbeatExpiry(options: {
  store: HeartbeatExpiryStore;
  intake: AlertIntake;
  heartbeats: AnyResourceDefinition;
  lateAfterMs: number;
}) {
  return async function expireDue(now: number, limit: number): Promise<{ id: string; late: boolean }[]> {
    return options.intake.transaction(async (tx) => {
      const due = await options.store.claimDue(tx, new Date(now), limit);
      const expired: { id: string; late: boolean }[] = [];
      for (const heartbeat of due) {
        const id = String(heartbeat.id);
        const expiresAt = new Date(heartbeat.expires_at as string | Date);
        const late = isLate(expiresAt, now, options.lateAfterMs);
        const origin = { team_id: Number(heartbeat.team_id), source: 'heartbeat', alert_source_id: null, user_id: null };
        const { alert } = await options.intake.receive(tx, origin, {
          summary: String(heartbeat.alert_summary),
          description: heartbeat.alert_description ?? null,
          alert_urgency_id: heartbeat.alert_urgency_id ?? null,
          notification_target_type: heartbeat.notification_target_type,
          notification_target_id: heartbeat.notification_target_id,
          status: 'triggered',
          deduplication_key: null,
          started_at: expiresAt,
          data: { heartbeat_id: id, expired_at: expiresAt.toISOString(), late },
        });
        const row = await options.store.markExpired(tx, id, new Date(now));
        await options.store.writeEvent(tx, {
          type: 'heartbeat.expired',
          team_id: origin.team_id,
          data: { heartbeat: serialize(options.heartbeats, row), alert_id: alert?.id ?? null, expired_at: expiresAt.toISOString(), late },
          occurred_at: expiresAt,
        });
        expired.push({ id, late });
      }
      return expired;
    });
  };
}
