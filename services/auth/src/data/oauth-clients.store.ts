import type { Knex } from 'knex';
import type { AdapterPayload } from 'oidc-provider';
import { executor, type Tx } from './transaction.js';

const TABLE = 'oidc_payloads';

/**
 * Clients written outside the provider (admin-created client-credentials applications),
 * in the same rows the provider's Client adapter reads, so it sees them at once.
 */
export interface OAuthClientsStore {
  put(clientId: string, payload: AdapterPayload, tx?: Tx): Promise<void>;
  /** Removes the client and every token, code and grant issued to it. */
  remove(clientId: string, tx?: Tx): Promise<void>;
}

export function createOAuthClientsStore(knex: Knex): OAuthClientsStore {
  return {
    async put(clientId, payload, tx) {
      await executor(
        knex,
        tx,
      )(TABLE)
        .insert({ model: 'Client', id: clientId, payload: JSON.stringify(payload) })
        .onConflict(['model', 'id'])
        .merge(['payload']);
    },
    async remove(clientId, tx) {
      const db = executor(knex, tx);
      await db(TABLE).where({ model: 'Client', id: clientId }).delete();
      await db(TABLE).whereRaw(`payload->>'clientId' = ?`, [clientId]).delete();
    },
  };
}
