import { createPrincipalVerifier } from '@firewatch/auth';
import { openDatabase } from '@firewatch/db';
import { createOutboxRelay } from '@firewatch/events';
import { runService } from '@firewatch/http';
import { createSecretBox, resealInBackground, sealedColumn } from '@firewatch/secret-box';
import { migrations } from '../migrations/index.js';
import { createIncidentConfigApp } from './app.js';
import { configSchema } from './config.js';

await runService({
  name: 'incident-config',
  schema: configSchema,
  async start({ config, logger }) {
    const knex = await openDatabase({ url: config.DATABASE_URL, migrations, poolMax: config.DB_POOL_MAX, logger });
    const relay = createOutboxRelay({ knex, amqpUrl: config.AMQP_URL, logger });
    await relay.start();
    const secretBox = createSecretBox({
      keys: config.SECRET_ENCRYPTION_KEYS, devKeySeed: config.DEV_KEY_SEED, setting: 'SECRET_ENCRYPTION_KEYS', purpose: 'incident-config/secrets/v1',
    });
    // The second half of a key rotation: values sealed with an older key get the first one.
    const resealing = resealInBackground(secretBox, sealedColumn(knex, 'secrets', 'secret_ciphertext'), logger, {
      what: 'secrets', setting: 'SECRET_ENCRYPTION_KEYS',
    });
    const app = createIncidentConfigApp({
      knex,
      logger,
      principals: createPrincipalVerifier({ publicKeys: config.PRINCIPAL_PUBLIC_KEYS, audience: 'incident-config' }),
      bodyLimit: config.BODY_LIMIT,
      secretBox,
      readiness: {
        database: () => knex.raw('select 1'),
        broker: async () => { if (!relay.stats.connected) throw new Error('broker not connected'); },
      },
    });
    return {
      app,
      async stop() {
        await resealing;
        await relay.stop();
        await knex.destroy();
      },
    };
  },
});
