import type { Knex } from 'knex';
import type { OAuthClientsStore } from '../domain/oauth-clients.store.js';
import { executor } from './transaction.js';

const TABLE = 'oidc_payloads';

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
