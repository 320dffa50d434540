import { UnauthorizedError } from '@firewatch/errors';
import { serialize, type AnyResourceDefinition, type Row, type Transaction } from '@firewatch/resource-kit';
import { sourceSecretMatches } from '../alert-sources/source-secret.js';
import { pingColumns } from './heartbeat-timing.js';

/** A ping URL's storage (data/heartbeats.repository.ts). */
export interface HeartbeatPingStore {
  find(id: string): Promise<Row | undefined>;
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  update(tx: Transaction, id: string, columns: Row): Promise<Row | undefined>;
  writeEvent(tx: Transaction, event: { type: string; team_id: number; data: unknown }): Promise<unknown>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function refusedSecret(): UnauthorizedError {
  // One answer for an unknown heartbeat, one without a secret yet and a wrong secret.
  return new UnauthorizedError("The heartbeat's secret is missing or wrong.", {
    code: 'invalid_heartbeat_secret',
    headers: { 'WWW-Authenticate': 'Bearer realm="firewatch-ingest"' },
  });
}

/**
 * Pings through a heartbeat's ping URL (docs/on-call.md, "Heartbeats"): a cron job holds
 * the heartbeat's own secret, not an API key. The secret is judged as an alert source's
 * is (its SHA-256, in constant time); the ping is the API ping's (`active` for one more
 * interval) and emits the same `heartbeat.pinged`, in one transaction.
 */
export function createHeartbeatPings({ store, heartbeats }: { store: HeartbeatPingStore; heartbeats: AnyResourceDefinition }) {
  return {
    /** The heartbeat `id` names when `secret` is its secret; 401 otherwise, whichever is wrong. */
    async authenticate(id: string, secret: string | undefined): Promise<Row> {
      if (!secret || !UUID.test(id)) throw refusedSecret();
      const heartbeat = await store.find(id.toLowerCase());
      if (!heartbeat?.secret_hash || !sourceSecretMatches(secret, heartbeat.secret_hash as Buffer)) throw refusedSecret();
      return heartbeat;
    },

    async ping(heartbeat: Row): Promise<void> {
      await store.transaction(async (tx) => {
        const row = await store.update(tx, String(heartbeat.id), { ...pingColumns(heartbeat, new Date()), updated_at: new Date() });
        // Deleted since it was read: nothing to note.
        if (!row) return;
        await store.writeEvent(tx, { type: 'heartbeat.pinged', team_id: Number(row.team_id), data: serialize(heartbeats, row) });
      });
    },
  };
}

export type HeartbeatPings = ReturnType<typeof createHeartbeatPings>;
