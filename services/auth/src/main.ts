import { createPrincipalVerifier, createSystemTokens } from '@firewatch/auth';
import { openDatabase } from '@firewatch/db';
import { createEventTransport, createOutboxRelay, outboxBacklog } from '@firewatch/events';
import { runService } from '@firewatch/http';
import { createMetrics, observeKnexPool, observeOutbox, relayObserver } from '@firewatch/metrics';
import { migrations } from '../migrations/index.js';
import { createAuthApp } from './app.js';
import { configSchema, oauthServerSettings } from './config.js';
import { createOAuthServer } from './create-oauth-server.js';
import { createServices } from './create-services.js';
import { pruneExpiredPayloads } from './data/oidc-payloads.adapter.js';

await runService({
  name: 'auth',
  schema: configSchema,
  async start({ config, logger }) {
    const knex = await openDatabase({ url: config.DATABASE_URL, migrations, poolMax: config.DB_POOL_MAX, logger });
    const metrics = createMetrics({ service: 'auth' });
    observeKnexPool(metrics, knex);
    observeOutbox(metrics, () => outboxBacklog(knex));
    // Events written in a change's transaction leave through the outbox relay, which keeps
    // retrying in the background while RabbitMQ (or the events database) is away.
    const transport = createEventTransport(config);
    logger.info(`events travel over ${transport.description}`);
    const relay = createOutboxRelay({
      knex,
      transport,
      logger,
      name: 'auth-outbox-relay',
      observer: relayObserver(metrics),
    });
    await relay.start();

    const services = createServices({ knex, logger, refreshGraceSeconds: config.OAUTH_REFRESH_GRACE_SECONDS });
    const issuer = config.ISSUER_URL?.replace(/\/$/, '') ?? `http://localhost:${config.PORT}`;
    if (!config.ISSUER_URL) logger.warn('ISSUER_URL is not set; using ' + issuer);
    const oauth = createOAuthServer({ services, logger, issuer, devKeySeed: config.DEV_KEY_SEED, ...oauthServerSettings(config) });
    const app = createAuthApp({
      services,
      knex,
      principals: createPrincipalVerifier({ publicKeys: config.PRINCIPAL_PUBLIC_KEYS, audience: 'auth' }),
      systemTokens: createSystemTokens(config.SYSTEM_TOKEN_SECRET),
      logger,
      oauth: oauth.router,
      trustProxy: config.TRUST_PROXY,
      metrics,
    });
    // Expired tokens, codes and sessions are invisible at once; their rows go in the background.
    const pruning = setInterval(() => {
      pruneExpiredPayloads(knex).catch((err) => logger.warn('could not prune expired OAuth rows', { error: (err as Error).message }));
    }, 10 * 60_000);
    pruning.unref();

    return {
      app,
      async stop() {
        clearInterval(pruning);
        await oauth.close();
        await relay.stop();
        await knex.destroy();
      },
    };
  },
});
