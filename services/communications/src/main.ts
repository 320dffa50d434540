import { runKitService } from '@firewatch/kit-service';
import { migrations } from '../migrations/index.js';
import { createCommunicationsApp } from './app.js';
import { createLiquidPool } from './domain/liquid/render-pool.js';
import { configSchema } from './config.js';

await runKitService({
  name: 'communications',
  schema: configSchema,
  migrations,
  async start() {
    const liquid = createLiquidPool();
    return {
      app: (shell) => createCommunicationsApp({ ...shell, liquid }),
      stop: () => liquid.close(),
    };
  },
});
