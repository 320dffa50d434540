// The floor's gateway (issue 26): the least code with our gateway's hops. A bearer token
// is looked up once in Redis and then kept in an in-process map (as our credential cache
// keeps it); every request runs our sliding-window Lua over the credential's and the
// team's logs in one EVALSHA, then is forwarded over a keep-alive agent with the team id.
// Left out: token hashing, principal signing, route table, scopes, error documents.
//   PORT, UPSTREAM (http://host:port), REDIS_URL
import http from 'node:http';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

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

async function handle(req, res) {
  if (req.url === '/readyz') return res.end('ok');
  const token = req.headers.authorization?.slice(7);
  let cred = credentials.get(token);
  if (!cred) {
    const raw = token && (await redis.get(`floor:cred:${token}`));
    if (!raw) return res.writeHead(401).end();
    cred = JSON.parse(raw);
    credentials.set(token, cred);
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
  const up = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent }, (r) => {
    res.writeHead(r.statusCode, r.headers);
    r.pipe(res);
  });
  up.on('error', () => res.writeHead(502).end());
  req.pipe(up);
}

http.createServer((req, res) => handle(req, res).catch(() => res.writeHead(503).end())).listen(Number(process.env.PORT), '127.0.0.1');
