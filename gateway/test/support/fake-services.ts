import express from 'express';
import type { Principal, SystemTokens } from '@firewatch/auth';
import { listen, type Listening, testPrincipal } from '@firewatch/testing';

export type RateLimits = { read: number | null; write: number | null };

export interface FakeAuth extends Listening {
  /** Resolve calls received, and the bodies sent. */
  calls: { token: string; systemSubject: string | null; contentType: string | undefined }[];
  grant(token: string, principal: Principal, rateLimits?: RateLimits): void;
  revoke(token: string): void;
  /** Delays every resolve answer (to see concurrent requests coalesce). */
  delayMs: number;
}

let keySeq = 0;
/** A principal whose API key id and team no other test uses, so its rate-limit buckets start empty. */
export function freshPrincipal(overrides: Partial<Principal> = {}): Principal {
  keySeq += 1;
  return testPrincipal({
    team_id: 1_000_000 + ((process.pid * 1000 + keySeq) % 1_000_000_000),
    credential: { type: 'api_key', id: `key-${process.pid}-${Date.now()}-${keySeq}`, kind: 'global' },
    ...overrides,
  }) as Principal;
}

/**
 * The auth service's credential endpoint, exactly as the gateway's contract states it:
 * POST /internal/credentials/resolve with a system token, body {"token"}; 200 with the
 * principal and rate limits, 401 for an unknown credential.
 */
export async function startFakeAuth(systemTokens: SystemTokens): Promise<FakeAuth> {
  const known = new Map<string, { principal: Principal; rate_limits: RateLimits }>();
  const calls: FakeAuth['calls'] = [];
  const app = express();
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.post('/internal/credentials/resolve', express.json(), async (req, res) => {
    const auth = req.headers.authorization ?? '';
    const systemSubject = await systemTokens.verify(auth.startsWith('Bearer ') ? auth.slice(7) : undefined);
    calls.push({ token: req.body?.token, systemSubject, contentType: req.headers['content-type'] });
    if (fake.delayMs > 0) await new Promise((r) => setTimeout(r, fake.delayMs));
    if (systemSubject !== 'gateway') {
      // As the real auth service does: 401, told apart from an unknown credential by its code.
      res.status(401).json({ errors: [{ status: '401', code: 'invalid_system_token', title: 'Unauthorized' }] });
      return;
    }
    const entry = known.get(req.body?.token);
    if (!entry) {
      res.status(401).json({ errors: [{ status: '401', code: 'invalid_credential', title: 'Unauthorized' }] });
      return;
    }
    res.json(entry);
  });
  const server = await listen(app);
  const fake: FakeAuth = {
    ...server,
    calls,
    delayMs: 0,
    grant: (token, principal, rateLimits = { read: null, write: null }) => {
      known.set(token, { principal, rate_limits: rateLimits });
    },
    revoke: (token) => {
      known.delete(token);
    },
  };
  return fake;
}

export interface Echo {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface FakeUpstream extends Listening {
  received: Echo[];
}

/**
 * A service that answers every request with what it received. Special paths:
 * `/v1/incidents/slow` answers after 1.5 s, `/v1/incidents/reset` drops the connection,
 * `/v1/incidents/missing` answers a JSON:API 404.
 */
export async function startFakeUpstream(): Promise<FakeUpstream> {
  const received: Echo[] = [];
  const app = express();
  app.use((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const echo = { method: req.method, url: req.originalUrl, headers: req.headers, body: Buffer.concat(chunks).toString() };
      received.push(echo);
      if (req.path === '/v1/incidents/reset') {
        req.socket.destroy();
      } else if (req.path === '/v1/incidents/slow') {
        const timer = setTimeout(() => res.json(echo), 1500);
        res.on('close', () => clearTimeout(timer));
      } else if (req.path === '/v1/incidents/tagged' && req.headers['if-none-match'] === '"v1"') {
        res.status(304).setHeader('ETag', '"v1"').end();
      } else if (req.path === '/v1/incidents/missing') {
        res
          .status(404)
          .type('application/vnd.api+json')
          .send(JSON.stringify({ errors: [{ status: '404', code: 'not_found', title: 'Not Found' }] }));
      } else {
        res.status(req.method === 'POST' ? 201 : 200).json(echo);
      }
    });
  });
  const server = await listen(app);
  return { ...server, received };
}
