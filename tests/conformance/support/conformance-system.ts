import { randomUUID } from 'node:crypto';
import { api, freePort, type RunningSystem, startSystem } from '../../support/system.js';
import { randomizeTeamIds, startWebhookReceiver } from '../../support/webhook-receiver.js';

export interface DeliveryFixture {
  id: string;
  endpointId: string;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
}

/** What a table row builds its request from: a running system, credentials and fresh records. */
export interface ConformanceContext {
  /** A global admin API key with raised limits (the default 5 reads a minute would not last). */
  token: string;
  /** A personal key of the team's admin user, for `/v1/users/me`. */
  userToken: string;
  call(
    method: string,
    path: string,
    options?: { body?: unknown; token?: string | null; headers?: Record<string, string> },
  ): Promise<ApiResponse>;
  /** Each call makes a new record through the gateway and returns its id. */
  create: {
    environment(): Promise<string>;
    /** Subscribed to environment.created, delivering to the suite's receiver unless `url` is given. */
    webhookEndpoint(url?: string): Promise<string>;
    apiKey(): Promise<string>;
    oauthApplication(): Promise<string>;
    /** A plain user of the team (the API makes none: the CLI does, as an operator). */
    user(): Promise<string>;
    /** A team (`/v1/teams`), once incident-config and on-call know it from auth's `group.created` (owner_group_ids must name one). */
    team(): Promise<string>;
  };
  /** A delivery the receiver accepted (made once, on first use). */
  delivery(): Promise<DeliveryFixture>;
  /** A delivery that gave up: its endpoint refuses connections (made once, on first use). */
  failedDelivery(): Promise<DeliveryFixture>;
  /** A client-credentials access token of a new application that may read environments (made once). */
  oauthToken(): Promise<string>;
  /** A well-formed UUID no record has. */
  unknownId: string;
  stop(): Promise<void>;
}

/** Starts one system for the whole suite: gateway, auth, incident-config, webhooks and a dispatcher. */
export async function startConformanceSystem(): Promise<ConformanceContext> {
  // Quick retries, so that a delivery to a closed port has failed for good within a second.
  const dispatcherEnv = { WEBHOOK_RETRY_SCHEDULE_MS: '100,100', WEBHOOK_RETRY_JITTER: '0' };
  // Every row calls as one team: its shared budget must outlast the table, which grows with each resource.
  const gatewayEnv = { RATE_LIMIT_TEAM_READS: '1000000', RATE_LIMIT_TEAM_WRITES: '1000000' };
  const system: RunningSystem = await startSystem({ webhooks: true, dispatchers: 1, dispatcherEnv, gatewayEnv });
  const receiver = await startWebhookReceiver();
  try {
    // Other suites' systems publish to the same exchange; their team 1 must not be ours.
    await randomizeTeamIds(system.env.auth.DATABASE_URL);
    const boot = await system.cli('bootstrap', '--team-name', 'Conformance', '--email', 'admin@conformance.test');
    const raised = ['--rate-limit-read', '10000', '--rate-limit-write', '10000'];
    const team = ['--team-id', String(boot.team.id)];
    const token = (await system.cli('api-keys', 'create', ...team, '--name', 'conformance', '--role', 'admin', ...raised)).token;
    const userToken = (
      await system.cli('api-keys', 'create', ...team, '--name', 'me', '--kind', 'personal', '--user-id', String(boot.user.id), ...raised)
    ).token;

    const call: ConformanceContext['call'] = (method, path, options = {}) =>
      api(system.gatewayUrl, method, path, {
        token: options.token === null ? undefined : (options.token ?? token),
        body: options.body,
        headers: options.headers,
      });
    const created = async (path: string, type: string, attributes: Record<string, unknown>) => {
      const res = await call('POST', path, { body: { data: { type, attributes } } });
      if (res.status !== 201) throw new Error(`fixture: POST ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body.data.id as string;
    };
    const unique = () => randomUUID().slice(0, 8);
    // Writes that fail on something else (an unknown environment; deduplication without a
    // key path), so they change nothing, tell whether incident-config and on-call know the team yet.
    const teamKnown = async (id: string) => {
      const deadline = Date.now() + 15_000;
      const probes = [
        ['services', { environment_ids: [randomUUID()] }],
        ['alert_sources', { deduplicate_alerts_by_key: true }],
      ] as const;
      for (const [type, failing] of probes) {
        const probe = { name: `Probe ${unique()}`, owner_group_ids: [id], ...failing };
        for (;;) {
          const res = await call('POST', `/v1/${type}`, { body: { data: { type, attributes: probe } } });
          const pointers = ((res.body?.errors ?? []) as { source?: { pointer?: string } }[]).map((e) => e.source?.pointer);
          if (res.status === 422 && !pointers.includes('/data/attributes/owner_group_ids/0')) break;
          if (Date.now() > deadline) throw new Error(`fixture: POST /v1/${type} does not know team ${id}: ${JSON.stringify(res.body)}`);
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    };
    const create: ConformanceContext['create'] = {
      environment: () => created('/v1/environments', 'environments', { name: `Env ${unique()}` }),
      webhookEndpoint: (url = receiver.url) =>
        created('/v1/webhooks/endpoints', 'webhooks_endpoints', { name: `Hook ${unique()}`, url, event_types: ['environment.created'] }),
      apiKey: () => created('/v1/api_keys', 'api_keys', { name: `Key ${unique()}`, kind: 'global' }),
      oauthApplication: () =>
        created('/v1/oauth_applications', 'oauth_applications', { name: `App ${unique()}`, scopes: ['ir.environments:read'] }),
      user: async () => {
        const n = unique();
        return String((await system.cli('users', 'create', ...team, '--email', `user-${n}@conformance.test`, '--name', `User ${n}`)).id);
      },
      team: async () => {
        const id = await created('/v1/teams', 'groups', { name: `Team ${unique()}` });
        await teamKnown(id);
        return id;
      },
    };

    // The first delivery of a new endpoint that has reached `status`; the environment created makes it.
    const deliveryIn = async (status: string, url: string): Promise<DeliveryFixture> => {
      const endpointId = await create.webhookEndpoint(url);
      await create.environment();
      const deadline = Date.now() + 15_000;
      for (;;) {
        const list = await call('GET', `/v1/webhooks/endpoints/${endpointId}/deliveries?filter[status]=${status}`);
        if (list.body?.data?.length) return { id: list.body.data[0].id as string, endpointId };
        if (Date.now() > deadline) throw new Error(`fixture: no delivery ${status}: ${JSON.stringify(list.body)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const issueOAuthToken = async () => {
      const app = await call('POST', '/v1/oauth_applications', {
        body: { data: { type: 'oauth_applications', attributes: { name: `App ${unique()}`, scopes: ['ir.environments:read'] } } },
      });
      const { client_id, client_secret } = app.body.data.attributes;
      const res = await fetch(`${system.authUrl}/oauth/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${client_id}:${client_secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'ir.environments:read' }),
      });
      const tokens = (await res.json()) as { access_token?: string };
      if (!res.ok) throw new Error(`fixture: client credentials grant answered ${res.status}: ${JSON.stringify(tokens)}`);
      return String(tokens.access_token);
    };
    let oauthToken: Promise<string> | undefined;
    let delivery: Promise<DeliveryFixture> | undefined;
    let failedDelivery: Promise<DeliveryFixture> | undefined;

    return {
      token,
      userToken,
      call,
      create,
      delivery: () => (delivery ??= deliveryIn('delivered', receiver.url)),
      // Nothing listens on a port just found free: every attempt is refused.
      failedDelivery: () => (failedDelivery ??= freePort().then((port) => deliveryIn('failed', `http://127.0.0.1:${port}/hooks`))),
      oauthToken: () => (oauthToken ??= issueOAuthToken()),
      unknownId: randomUUID(),
      async stop() {
        await receiver.close();
        await system.stop();
      },
    };
  } catch (err) {
    await receiver.close();
    await system.stop();
    throw err;
  }
}
