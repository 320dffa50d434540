import { fileURLToPath, pathToFileURL } from 'node:url';

// scripts/dev-env.mjs is the environment `pnpm start` gives every process.
const devEnvUrl = pathToFileURL(fileURLToPath(new URL('../../../scripts/dev-env.mjs', import.meta.url))).href;

async function envsWith(optIn: string | undefined) {
  const saved = process.env.FIREWATCH_DEV_LOOPBACK_WEBHOOKS;
  if (optIn === undefined) delete process.env.FIREWATCH_DEV_LOOPBACK_WEBHOOKS;
  else process.env.FIREWATCH_DEV_LOOPBACK_WEBHOOKS = optIn;
  try {
    const { processEnvs } = await import(devEnvUrl);
    return processEnvs({ secret: 's'.repeat(43), dbSuffix: '_dev_env_test' }) as Record<string, Record<string, string>>;
  } finally {
    if (saved === undefined) delete process.env.FIREWATCH_DEV_LOOPBACK_WEBHOOKS;
    else process.env.FIREWATCH_DEV_LOOPBACK_WEBHOOKS = saved;
  }
}

describe('dev-env webhook settings', () => {
  it('has no loopback allow-list and no plain HTTP unless FIREWATCH_DEV_LOOPBACK_WEBHOOKS=1', async () => {
    for (const optIn of [undefined, '', '0', 'yes please']) {
      const envs = await envsWith(optIn);
      expect({
        optIn,
        dispatcher: envs['webhook-dispatcher'].WEBHOOK_ALLOWED_NETWORKS,
        http: envs['webhook-dispatcher'].WEBHOOK_ALLOW_HTTP,
        api: envs.webhooks.WEBHOOK_ALLOW_HTTP,
      }).toEqual({ optIn, dispatcher: undefined, http: undefined, api: undefined });
    }
    const opted = await envsWith('1');
    expect(opted['webhook-dispatcher']).toMatchObject({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128' });
    expect(opted.webhooks.WEBHOOK_ALLOW_HTTP).toBe('true');
  });
});
