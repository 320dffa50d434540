import { runKitService } from '@firewatch/kit-service';
import { createSecretBox, resealInBackground, sealedColumn } from '@firewatch/secret-box';
import { migrations } from '../migrations/index.js';
import { createIncidentConfigApp } from './app.js';
import { configSchema } from './config.js';

await runKitService({
  name: 'incident-config',
  schema: configSchema,
  migrations,
  async start({ config, logger, knex }) {
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
    return {
      app: (shell) => createIncidentConfigApp({ ...shell, secretBox }),
      async stop() {
        await resealing;
      },
    };
  },
});
