// The local system's settings: one place for the start script, the CLI wrapper and
// the end-to-end tests. Secrets are made once per checkout and kept in .firewatch/.
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Secrets and the embedded PostgreSQL's data (FIREWATCH_STATE_DIR moves them; gitignored). */
export const stateDir = path.resolve(process.env.FIREWATCH_STATE_DIR ?? path.join(root, '.firewatch'));
const secretsFile = path.join(stateDir, 'secrets.json');

/** A new Ed25519 principal key: the private JWK for the gateway, a public JWKS for the services. */
export function principalKeyPair() {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const pub = publicKey.export({ format: 'jwk' });
  // The RFC 7638 thumbprint, as libs/auth's generatePrincipalKeys names its keys.
  const kid = createHash('sha256')
    .update(JSON.stringify({ crv: pub.crv, kty: pub.kty, x: pub.x }))
    .digest('base64url');
  return {
    PRINCIPAL_SIGNING_KEY: JSON.stringify({ ...privateKey.export({ format: 'jwk' }), kid, alg: 'EdDSA' }),
    PRINCIPAL_PUBLIC_KEYS: JSON.stringify({ keys: [{ ...pub, kid, alg: 'EdDSA', use: 'sig' }] }),
  };
}

/** Each service's own database role (the dispatcher shares the webhooks database and role). */
const DATABASES = {
  auth: 'firewatch_auth',
  'incident-config': 'firewatch_incident_config',
  communications: 'firewatch_communications',
  'on-call': 'firewatch_on_call',
  webhooks: 'firewatch_webhooks',
  'webhook-dispatcher': 'firewatch_webhooks',
};

/** Every service is on the bus (libs/events BUS_SERVICES), each as its own broker user. */
const BUS_SERVICES = Object.keys(DATABASES);
const amqpPasswordKey = (service) => `AMQP_PASSWORD_${service.toUpperCase().replace(/-/g, '_')}`;

/** `url` without user name and password, for messages. */
export function withoutCredentials(url) {
  try {
    return Object.assign(new URL(url), { username: '', password: '' }).toString();
  } catch {
    return '(an unreadable URL)';
  }
}

export function secrets() {
  const kept = fs.existsSync(secretsFile) ? JSON.parse(fs.readFileSync(secretsFile, 'utf8')) : {};
  const random = () => randomBytes(32).toString('base64url');
  // Checkouts made before a secret existed get it added; existing ones are kept.
  const made = {
    // A checkout made when the seed was INTERNAL_TOKEN_SECRET keeps it, so its keys stay the same.
    DEV_KEY_SEED: kept.INTERNAL_TOKEN_SECRET ?? random(),
    SYSTEM_TOKEN_SECRET: random(),
    // The embedded PostgreSQL's superuser (scripts/backing-services.mjs).
    EMBEDDED_PG_PASSWORD: random(),
    ...(kept.PRINCIPAL_SIGNING_KEY ? {} : principalKeyPair()),
    ...Object.fromEntries([...new Set(Object.values(DATABASES))].map((role) => [`DB_PASSWORD_${role.toUpperCase()}`, random()])),
    ...Object.fromEntries(BUS_SERVICES.map((service) => [amqpPasswordKey(service), random()])),
    ...kept,
  };
  if (Object.keys(made).length !== Object.keys(kept).length) {
    // Readable by others so that the embedded PostgreSQL's user reaches its data below; the secrets file is not.
    fs.mkdirSync(stateDir, { recursive: true, mode: 0o755 });
    fs.writeFileSync(secretsFile, JSON.stringify(made, null, 2), { mode: 0o600 });
  }
  return made;
}

/**
 * Base URLs of the backing services, as their administrators; override with
 * FIREWATCH_PG_URL and friends. RabbitMQ's management API defaults to port 15672 of the
 * broker's host with the broker URL's credentials.
 */
export function backing(env = process.env) {
  const amqp = env.FIREWATCH_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
  const broker = new URL(amqp);
  return {
    pg: (env.FIREWATCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432').replace(/\/+$/, ''),
    amqp,
    amqpManagement:
      env.FIREWATCH_AMQP_MANAGEMENT_URL ??
      Object.assign(new URL(`http://${broker.hostname}:15672`), {
        username: broker.username || 'guest',
        password: broker.password || 'guest',
      }).toString(),
    redis: env.FIREWATCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
  };
}

/**
 * Environment of each process. `ports` and `dbSuffix` let the end-to-end tests run
 * a private copy of the system beside a developer's running one. `chosen` is what
 * `resolveBacking` (scripts/backing-services.mjs) decided; without it, the URLs of
 * {@link backing}. Without RabbitMQ, events travel over the shared events database
 * (`EVENTS_DATABASE_URL`, each service as its own role); without Redis, the gateway and
 * auth keep their limits in memory.
 */
export function processEnvs({ ports = {}, dbSuffix = '', secret, logLevel = 'info', chosen } = {}) {
  const b = chosen ? { ...backing(), pg: chosen.pg, amqp: chosen.amqp ?? null, redis: chosen.redis ?? null } : backing();
  const s = secrets();
  const eventsDatabase = `firewatch_events${dbSuffix}`;
  // Each service connects as its own role, which owns its database and nothing else.
  const database = (service) => {
    const role = DATABASES[service];
    const password = s[`DB_PASSWORD_${role.toUpperCase()}`];
    const url = new URL(b.pg);
    Object.assign(url, { username: role, password, pathname: `/${role}${dbSuffix}` });
    return {
      database: `${role}${dbSuffix}`,
      role,
      password,
      url: url.toString(),
      eventsUrl: Object.assign(new URL(url), { pathname: `/${eventsDatabase}` }).toString(),
    };
  };
  const usersQueue = `on-call.users${dbSuffix}`;
  const webhookQueue = `webhook-dispatcher${dbSuffix}`;
  const groupsQueue = `incident-config.groups${dbSuffix}`;
  // Each service logs in to the broker as its own user, with only its own rights.
  const brokerUsers = BUS_SERVICES.map((service) => {
    const user = `firewatch-${service}${dbSuffix}`;
    const password = s[amqpPasswordKey(service)];
    const url = b.amqp ? Object.assign(new URL(b.amqp), { username: user, password }) : null;
    return {
      service,
      user,
      password,
      url: url?.toString(),
      queue: { 'on-call': usersQueue, 'incident-config': groupsQueue, 'webhook-dispatcher': webhookQueue }[service],
    };
  });
  // Each service publishes and consumes as its broker user, or over the events database as its own role.
  // The other variable is set empty (read as unset), so that one inherited from the shell cannot choose the transport.
  const amqp = (service) =>
    b.amqp
      ? { AMQP_URL: brokerUsers.find((u) => u.service === service).url, EVENTS_DATABASE_URL: '' }
      : { AMQP_URL: '', EVENTS_DATABASE_URL: database(service).eventsUrl };
  // Consumers know each publishing service by its user (the dispatcher publishes nothing):
  // the broker user, or the database role the events database records as publisher.
  const AMQP_PUBLISHERS = BUS_SERVICES.filter((service) => service !== 'webhook-dispatcher')
    .map((service) => `${service}=${b.amqp ? brokerUsers.find((u) => u.service === service).user : DATABASES[service] + dbSuffix}`)
    .join(',');
  const redis = { REDIS_URL: b.redis ?? '' };
  // FIREWATCH_DEV_LOOPBACK_WEBHOOKS=1: deliver webhooks to receivers on this machine.
  const loopbackWebhooks = ['1', 'true'].includes(process.env.FIREWATCH_DEV_LOOPBACK_WEBHOOKS ?? '');
  const p = {
    gateway: 8080,
    auth: 8081,
    incidentConfig: 8082,
    communications: 8083,
    onCall: 8084,
    webhooks: 8085,
    dispatcher: 8086,
    ...ports,
  };
  const common = {
    // OIDC, webhook and secrets' keys derive from it in local runs (never in production).
    DEV_KEY_SEED: secret ?? s.DEV_KEY_SEED,
    // Every service may verify principals; only the gateway gets the private key.
    PRINCIPAL_PUBLIC_KEYS: s.PRINCIPAL_PUBLIC_KEYS,
    LOG_LEVEL: logLevel,
    HOST: '127.0.0.1',
  };
  return {
    auth: {
      ...common,
      ...amqp('auth'),
      SERVICE_NAME: 'auth',
      PORT: String(p.auth),
      DATABASE_URL: database('auth').url,
      ISSUER_URL: `http://127.0.0.1:${p.auth}`,
      // Dynamic-registration rate limit shared by replicas; OAuth keys derive from the secret.
      ...redis,
      SYSTEM_TOKEN_SECRET: s.SYSTEM_TOKEN_SECRET,
    },
    'incident-config': {
      ...common,
      ...amqp('incident-config'),
      SERVICE_NAME: 'incident-config',
      PORT: String(p.incidentConfig),
      DATABASE_URL: database('incident-config').url,
      // Its own queue of group events per suffix, as on-call's users queue.
      GROUPS_QUEUE: groupsQueue,
      AMQP_PUBLISHERS,
    },
    communications: {
      ...common,
      ...amqp('communications'),
      SERVICE_NAME: 'communications',
      PORT: String(p.communications),
      DATABASE_URL: database('communications').url,
    },
    'on-call': {
      ...common,
      ...amqp('on-call'),
      SERVICE_NAME: 'on-call',
      PORT: String(p.onCall),
      DATABASE_URL: database('on-call').url,
      // Its own queue of user events per suffix: a queue left by another stack would feed it that stack's users.
      USERS_QUEUE: usersQueue,
      AMQP_PUBLISHERS,
    },
    webhooks: {
      ...common,
      ...amqp('webhooks'),
      SERVICE_NAME: 'webhooks',
      PORT: String(p.webhooks),
      DATABASE_URL: database('webhooks').url,
      // Its own dispatcher queue per suffix too, which provisionBroker declares.
      WEBHOOK_QUEUE: webhookQueue,
      // Plain-HTTP receivers on this machine only when asked: every service listens on
      // 127.0.0.1, so a loopback allow-list would let any tenant POST to all of them.
      ...(loopbackWebhooks ? { WEBHOOK_ALLOW_HTTP: 'true' } : {}),
    },
    'webhook-dispatcher': {
      ...common,
      ...amqp('webhook-dispatcher'),
      SERVICE_NAME: 'webhook-dispatcher',
      PORT: String(p.dispatcher),
      DATABASE_URL: database('webhooks').url,
      WEBHOOK_QUEUE: webhookQueue,
      AMQP_PUBLISHERS,
      ...(loopbackWebhooks ? { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128' } : {}),
    },
    gateway: {
      ...common,
      SERVICE_NAME: 'gateway',
      PORT: String(p.gateway),
      ...redis,
      PRINCIPAL_SIGNING_KEY: s.PRINCIPAL_SIGNING_KEY,
      SYSTEM_TOKEN_SECRET: s.SYSTEM_TOKEN_SECRET,
      AUTH_SERVICE_URL: `http://127.0.0.1:${p.auth}`,
      INCIDENT_CONFIG_URL: `http://127.0.0.1:${p.incidentConfig}`,
      COMMUNICATIONS_URL: `http://127.0.0.1:${p.communications}`,
      ON_CALL_URL: `http://127.0.0.1:${p.onCall}`,
      WEBHOOKS_URL: `http://127.0.0.1:${p.webhooks}`,
    },
    /** The administrator's connection {@link provisionDatabases} uses. */
    adminPg: b.pg,
    /** The events database {@link provisionDatabases} creates when there is no RabbitMQ, with each consumer's queue. */
    events: b.amqp
      ? null
      : {
          database: eventsDatabase,
          roles: [...new Set(Object.values(DATABASES))].map((role) => `${role}${dbSuffix}`),
          queues: [
            { consumer: 'on-call', queue: usersQueue },
            { consumer: 'incident-config', queue: groupsQueue },
            { consumer: 'webhook-dispatcher', queue: webhookQueue },
          ].map(({ consumer, queue }) => ({ consumer, queue, role: `${DATABASES[consumer]}${dbSuffix}` })),
        },
    /** What {@link provisionDatabases} creates: one database and role per service. */
    databases: ['auth', 'incident-config', 'communications', 'on-call', 'webhooks'].map(database),
    /** What {@link provisionBroker} creates: one broker user per service. */
    brokerUsers,
    /** What {@link provisionBroker} declares: each consumer's queue and its `.dead` queue (a private stack deletes them). */
    queues: [usersQueue, groupsQueue, webhookQueue].flatMap((q) => [q, `${q}.dead`]),
    urls: {
      gateway: `http://127.0.0.1:${p.gateway}`,
      auth: `http://127.0.0.1:${p.auth}`,
      incidentConfig: `http://127.0.0.1:${p.incidentConfig}`,
      communications: `http://127.0.0.1:${p.communications}`,
      onCall: `http://127.0.0.1:${p.onCall}`,
      webhooks: `http://127.0.0.1:${p.webhooks}`,
    },
  };
}

/**
 * V8 flags every service runs with (the Dockerfile's CMDs, the packages' start scripts and
 * the end-to-end harness pass the same; docs/performance.md, issue 26):
 * - an old generation capped at 256 MB: V8 lets it grow past what survived the last full
 *   collection by a factor that rises with the limit (up to 4x from 2 GB; the default on a
 *   24 GB machine is 4 GB), so incident-config's ~30 MB live grew to 120 MB of promoted
 *   garbage (220 MB resident). The manifests' pods (384-640 MiB limits) already got a
 *   280-344 MB limit from V8, which sizes it from the cgroup: the flag makes any machine
 *   behave as they do.
 * - a young generation of 8 MB semi-spaces instead of V8's default for a large machine (which
 *   reached 250-350 MB resident). 4 MB semi-spaces saved 8 MB of young generation but
 *   promoted more: incident-config's old generation then grew further between full
 *   collections (incident-config's peak: median 142 MB, up to 166, in eleven bench:floor
 *   runs; with 8 MB, median 134, up to 147, in nine).
 * - WebAssembly left to Liftoff, its baseline compiler: the only WebAssembly a service runs
 *   is fetch's HTTP parser (undici's llhttp), for the gateway's credential lookups on a
 *   cache miss and start-up calls; its tier-up to TurboFan took ~22 MB of V8's malloc
 *   after the fourth fetch, which glibc then kept (the gateway peaked at 141 MB instead of
 *   ~125). No request's hot path parses with it.
 */
export const SERVICE_NODE_ARGS = ['--max-semi-space-size=8', '--max-old-space-size=256', '--liftoff-only'];

/**
 * Environment every service runs with (the Dockerfile's runtime stage, the packages' start
 * scripts and the end-to-end harness set the same); a variable already set wins. glibc
 * gives each thread that mallocs its own arena (V8's four workers compile and collect in
 * theirs) and keeps their freed pages: with two, incident-config's malloc held 13-15 MB
 * instead of 17-22 MB, the gateway's 17-18 instead of 21-22 (issue 26). Other C libraries
 * ignore it.
 */
export const SERVICE_ENV = { MALLOC_ARENA_MAX: '2' };

/** Entry points of the processes, in start order. */
export const PROCESSES = [
  { name: 'auth', entry: 'services/auth/dist/src/main.js' },
  { name: 'incident-config', entry: 'services/incident-config/dist/src/main.js' },
  { name: 'communications', entry: 'services/communications/dist/src/main.js' },
  { name: 'on-call', entry: 'services/on-call/dist/src/main.js' },
  { name: 'webhooks', entry: 'services/webhooks/dist/src/main.js' },
  { name: 'webhook-dispatcher', entry: 'services/webhook-dispatcher/dist/src/main.js' },
  { name: 'gateway', entry: 'gateway/dist/main.js' },
];

/**
 * Creates each service's role and database (idempotent) with the admin connection of
 * `envs`, so services never connect as a superuser; and, without RabbitMQ, the events
 * database with each consumer's queue. Needs libs/db and libs/events built.
 */
export async function provisionDatabases(envs) {
  const { provisionServiceDatabase } = await import(path.join(root, 'libs/db/dist/index.js'));
  for (const { database, role, password } of envs.databases) {
    await provisionServiceDatabase(`${envs.adminPg}/postgres`, { database, role, password });
  }
  if (envs.events) {
    const { EVENT_QUEUES, provisionPgEvents } = await import(path.join(root, 'libs/events/dist/index.js'));
    const queues = envs.events.queues.map((q) => ({ queue: q.queue, role: q.role, bindings: EVENT_QUEUES[q.consumer].bindings }));
    await provisionPgEvents(`${envs.adminPg}/postgres`, { database: envs.events.database, roles: envs.events.roles, queues });
  }
}

/**
 * Declares the events exchanges and the consumers' queues, and creates each service's
 * broker user with only its own rights (idempotent), through RabbitMQ's management API as
 * the administrator of `backing()`. Needs libs/events built.
 */
export async function provisionBroker(envs) {
  const { EVENT_CONSUMERS, declareEventExchanges, declareEventQueue, provisionBrokerUser } = await import(
    path.join(root, 'libs/events/dist/index.js')
  );
  const { amqp, amqpManagement } = backing();
  const vhost = decodeURIComponent(new URL(amqp).pathname.slice(1)) || '/';
  await declareEventExchanges(amqpManagement, { vhost });
  for (const consumer of EVENT_CONSUMERS) {
    await declareEventQueue(amqpManagement, { consumer, queue: envs.brokerUsers.find((u) => u.service === consumer).queue, vhost });
  }
  for (const { service, user, password, queue } of envs.brokerUsers) {
    await provisionBrokerUser(amqpManagement, { service, user, password, queue, vhost });
  }
}
