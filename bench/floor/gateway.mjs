// The floor's gateway (issue 26): the least code with our gateway's hops. A bearer token
// is looked up once in Redis and then kept in an in-process map (as our credential cache
// keeps it); every request runs our sliding-window Lua over the credential's and the
// team's logs in one EVALSHA, then is forwarded over a keep-alive agent with the team id.
// Left out: token hashing, principal signing, route table, scopes, error documents.
// FEATURES=1 (the bench's `floor+`) adds, as the least code that does each, what the contract
// and the operations guide ask of a gateway's answer to every request: the token's digest as
// its cache key, an X-Request-Id, nosniff, the four X-RateLimit-* headers, a signed principal
// bound to the service, method and path (Ed25519, remembered per token and path for 5 s) and
// a request count and duration per route and status.
//   PORT, UPSTREAM (http://host:port), REDIS_URL [FEATURES=1, PRINCIPAL_KEY (a private JWK)]
import { features, jose, timeRequest } from './features.mjs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { hash, randomUUID } from 'node:crypto';

// ioredis is the gateway's dependency, not the root's.
const { Redis } = createRequire(new URL('../../gateway/package.json', import.meta.url))('ioredis');

// The same script as gateway/src/data/redis-rate-limit.store.ts, read from there so it cannot drift.
const source = readFileSync(new URL('../../gateway/src/data/redis-rate-limit.store.ts', import.meta.url), 'utf8');
const lua = source.match(/const SLIDING_WINDOW_LUA = `([\s\S]*?)`;/)[1];

const redis = new Redis(process.env.REDIS_URL, { enableAutoPipelining: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
redis.defineCommand('slidingWindow', { lua });
await new Promise((r) => (redis.status === 'ready' ? r() : redis.once('ready', r)));

const upstream = new URL(process.env.UPSTREAM);
const agent = new http.Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 256, scheduling: 'lifo' });
const credentials = new Map();
let counter = 0;

const signingKey = features ? await jose.importJWK(JSON.parse(process.env.PRINCIPAL_KEY), 'EdDSA') : undefined;
const signed = new Map();
function principalFor(token, cred, method, path) {
  const key = `${token} ${method} ${path}`;
  const hit = signed.get(key);
  if (hit && hit.until > Date.now()) return hit.token;
  // The fields a Firewatch principal of an API key has (libs/auth principal.ts), so the token is as long.
  const p = {
    team_id: cred.team_id,
    user_id: null,
    role: 'admin',
    on_call_role: 'admin',
    credential: { type: 'api_key', id: '0b7e9f1c-3d2a-4e5f-8a6b-9c0d1e2f3a4b', kind: 'global', expires_at: null },
    capabilities: ['read', 'create', 'update', 'delete'],
    scopes: null,
    group_ids: null,
    record_ids: null,
  };
  const token2 = new jose.SignJWT({ p, htm: method, htu: path })
    .setProtectedHeader({ alg: 'EdDSA' })
    .setIssuer('floor-gateway')
    .setAudience('floor')
    .setIssuedAt()
    .setExpirationTime('10s')
    .sign(signingKey);
  if (signed.size >= 5000) signed.delete(signed.keys().next().value);
  signed.set(key, { token: token2, until: Date.now() + 5000 });
  // A failed signing is forgotten, as Firewatch's signer forgets it.
  token2.catch(() => signed.get(key)?.token === token2 && signed.delete(key));
  return token2;
}

async function handle(req, res) {
  if (req.url === '/readyz') return res.end('ok');
  const token = req.headers.authorization?.slice(7);
  const requestId = features ? randomUUID() : undefined;
  if (features) {
    res.setHeader('X-Request-Id', requestId);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    timeRequest(req, res);
  }
  const cacheKey = features && token ? hash('sha256', token, 'base64url') : token;
  let cred = credentials.get(cacheKey);
  if (!cred) {
    const raw = token && (await redis.get(`floor:cred:${token}`));
    if (!raw) return res.writeHead(401).end();
    cred = JSON.parse(raw);
    credentials.set(cacheKey, cred);
  }
  const bucket = req.method === 'GET' ? 'read' : 'write';
  const reply = await redis.slidingWindow(
    2,
    `floor:rl:${bucket}:key:${cred.key_id}`,
    `floor:rl:${bucket}:team:${cred.team_id}`,
    60_000_000,
    `${process.pid}:${counter++}`,
    1_000_000,
    1_000_000,
  );
  if (reply[1] !== 1) return res.writeHead(429).end();
  const headers = { ...req.headers, 'x-team-id': String(cred.team_id) };
  delete headers.authorization;
  if (features) {
    res.setHeader('X-RateLimit-Limit', '1000000, 1000000;window=60');
    res.setHeader('X-RateLimit-Remaining', String(1_000_000 - reply[2]));
    res.setHeader('X-RateLimit-Used', String(reply[2]));
    res.setHeader('X-RateLimit-Reset', String(Math.ceil(Date.now() / 1000) + 60));
    const q = req.url.indexOf('?');
    headers['x-firewatch-principal'] = await principalFor(token, cred, req.method, q === -1 ? req.url : req.url.slice(0, q));
    headers['x-request-id'] = requestId;
  }
  const up = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent }, (r) => {
    res.writeHead(r.statusCode, r.headers);
    r.pipe(res);
  });
  up.on('error', () => res.writeHead(502).end());
  req.pipe(up);
}

http.createServer((req, res) => handle(req, res).catch(() => res.writeHead(503).end())).listen(Number(process.env.PORT), '127.0.0.1');
