import { runKitService } from '@firewatch/kit-service';
import { createSecretBox, resealInBackground, sealedColumn } from '@firewatch/secret-box';
import { migrations } from '../migrations/index.js';
import { createIncidentConfigApp } from './app.js';
import { configSchema } from './config.js';
import { createGroupEventsConsumer } from './queue/group-events.consumer.js';

await runKitService({
  name: 'incident-config',
  schema: configSchema,
  migrations,
  async start({ config, logger, knex, relay, transport }) {
    const secretBox = createSecretBox({
      keys: config.SECRET_ENCRYPTION_KEYS,
      devKeySeed: config.DEV_KEY_SEED,
      setting: 'SECRET_ENCRYPTION_KEYS',
      purpose: 'incident-config/secrets/v1',
    });
    // The second half of a key rotation: values sealed with an older key get the first one.
    const resealing = resealInBackground(secretBox, sealedColumn(knex, 'secrets', 'secret_ciphertext'), logger, {
      what: 'secrets',
      setting: 'SECRET_ENCRYPTION_KEYS',
    });
    const groups = createGroupEventsConsumer({
      knex,
      transport,
      logger,
      queue: config.GROUPS_QUEUE,
      publishers: config.AMQP_PUBLISHERS,
    });
    await groups.start();
    return {
      app: (shell) => createIncidentConfigApp({ ...shell, secretBox }),
      // The groups consumer is on the broker too: one check for both connections.
      readiness: {
        broker: async () => {
          if (!relay.stats.connected || !groups.connected) throw new Error('broker not connected');
        },
      },
      async stop() {
        await groups.stop();
        await resealing;
      },
    };
  },
});
