// The floor's service (issue 26): node:http and a pg Pool, one statement per read and one
// transaction per write, the JSON:API documents built by hand. The team comes from the
// floor gateway's x-team-id header. Left out: principal verification, scopes, validation
// beyond "name is a string", filters, sorts other than the list's, includes, ETags.
// FEATURES=1 (the bench's `floor+`) adds, as the least code that does each, what the contract
// and the operations guide ask of a service: the gateway's principal verified (Ed25519, a
// verified token remembered until it expires, its method and path checked on every request)
// and its team and role used, the JSON:API media type checked, an item's ETag (and 304 for
// If-None-Match), the X-Request-Id given back, and a request count and duration per route and status.
//   PORT, DATABASE_URL [FEATURES=1, PRINCIPAL_PUBLIC_KEY (a public JWK)]
import { features, jose, timeRequest } from './features.mjs';
import http from 'node:http';
import { hash } from 'node:crypto';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const COLUMNS =
  'id, name, slug, description, color, position, external_id, notify_emails, chat_channels, chat_aliases, properties, created_at, updated_at';

const publicKey = features ? await jose.importJWK(JSON.parse(process.env.PRINCIPAL_PUBLIC_KEY), 'EdDSA') : undefined;
const MEDIA_TYPE = 'application/vnd.api+json';
const verified = new Map();
/** The principal of a genuine, unexpired token for this method and path; else null. */
async function principalOf(token, method, path) {
  if (!token) return null;
  let hit = verified.get(token);
  if (!hit || hit.exp * 1000 <= Date.now()) {
    try {
      const { payload } = await jose.jwtVerify(token, publicKey, { issuer: 'floor-gateway', audience: 'floor', algorithms: ['EdDSA'] });
      hit = payload;
    } catch {
      return null;
    }
    if (hit.exp === undefined) return null;
    if (verified.size >= 5000) verified.delete(verified.keys().next().value);
    verified.set(token, hit);
  }
  return hit.htm === method && hit.htu === path && typeof hit.p === 'object' && hit.p !== null ? hit.p : null;
}

const resource = ({ id, total, ...a }) => ({ id, type: 'environments', attributes: a });
const send = (res, status, doc) => {
  const body = JSON.stringify(doc);
  res.writeHead(status, { 'content-type': 'application/vnd.api+json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
};

async function handle(req, res) {
  if (req.url === '/readyz') return res.end('ok');
  let team = Number(req.headers['x-team-id']);
  const url = new URL(req.url, 'http://floor');
  if (features) {
    timeRequest(req, res);
    res.setHeader('X-Request-Id', req.headers['x-request-id'] ?? '');
    const principal = await principalOf(req.headers['x-firewatch-principal'], req.method, url.pathname);
    if (!principal) return send(res, 401, { errors: [{ status: '401' }] });
    if (principal.role !== 'admin' && req.method !== 'GET') return send(res, 403, { errors: [{ status: '403' }] });
    team = principal.team_id;
    const accept = req.headers.accept;
    if (accept && accept.includes(MEDIA_TYPE) && !/application\/vnd\.api\+json\s*(,|$)/.test(accept) && !accept.includes('*/*'))
      return send(res, 406, { errors: [{ status: '406' }] });
    if (req.method === 'POST' && req.headers['content-type'] !== MEDIA_TYPE) return send(res, 415, { errors: [{ status: '415' }] });
  }
  const one = url.pathname.match(/^\/v1\/environments\/([0-9a-f-]{36})$/);
  if (req.method === 'GET' && one) {
    const { rows } = await pool.query({
      name: 'env_get',
      text: `SELECT ${COLUMNS} FROM environments WHERE team_id = $1 AND id = $2`,
      values: [team, one[1]],
    });
    if (!rows.length) return send(res, 404, { errors: [{ status: '404' }] });
    if (!features) return send(res, 200, { data: resource(rows[0]) });
    const body = JSON.stringify({ data: resource(rows[0]) });
    const tag = `"${hash('sha256', body, 'base64url').slice(0, 32)}"`;
    res.setHeader('ETag', tag);
    if (req.headers['if-none-match'] === tag) return res.writeHead(304).end();
    res.writeHead(200, { 'content-type': MEDIA_TYPE, 'content-length': Buffer.byteLength(body) });
    return res.end(body);
  }
  if (req.method === 'GET' && url.pathname === '/v1/environments') {
    const size = Math.min(Number(url.searchParams.get('page[size]') ?? 20), 100);
    const { rows } = await pool.query({
      name: 'env_list',
      text: `SELECT ${COLUMNS}, count(*) OVER () AS total FROM environments WHERE team_id = $1 ORDER BY position, created_at, id LIMIT $2`,
      values: [team, size],
    });
    const total = Number(rows[0]?.total ?? 0);
    return send(res, 200, { data: rows.map(resource), meta: { total_count: total, total_pages: Math.ceil(total / size) } });
  }
  if (req.method === 'POST' && url.pathname === '/v1/environments') {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const name = JSON.parse(Buffer.concat(chunks).toString()).data?.attributes?.name;
    if (typeof name !== 'string') return send(res, 422, { errors: [{ status: '422' }] });
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query({
        name: 'env_insert',
        text: `INSERT INTO environments (team_id, name, slug) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
        values: [team, name, name.toLowerCase().replace(/[^a-z0-9]+/g, '-')],
      });
      const doc = { data: resource(rows[0]) };
      await client.query({
        name: 'outbox_insert',
        text: 'INSERT INTO outbox (routing_key, payload) VALUES ($1, $2)',
        values: ['environment.created', { team_id: team, ...doc }],
      });
      await client.query('COMMIT');
      return send(res, 201, doc);
    } catch (err) {
      await client.query('ROLLBACK');
      throw err;
    } finally {
      client.release();
    }
  }
  send(res, 404, { errors: [{ status: '404' }] });
}

http
  .createServer((req, res) => handle(req, res).catch(() => send(res, 500, { errors: [{ status: '500' }] })))
  .listen(Number(process.env.PORT), '127.0.0.1');
