// The floor's service (issue 26): node:http and a pg Pool, one statement per read and one
// transaction per write, the JSON:API documents built by hand. The team comes from the
// floor gateway's x-team-id header. Left out: principal verification, scopes, validation
// beyond "name is a string", filters, sorts other than the list's, includes, ETags.
//   PORT, DATABASE_URL
import http from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const COLUMNS =
  'id, name, slug, description, color, position, external_id, notify_emails, chat_channels, chat_aliases, properties, created_at, updated_at';

const resource = ({ id, total, ...a }) => ({ id, type: 'environments', attributes: a });
const send = (res, status, doc) => {
  const body = JSON.stringify(doc);
  res.writeHead(status, { 'content-type': 'application/vnd.api+json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
};

async function handle(req, res) {
  if (req.url === '/readyz') return res.end('ok');
  const team = Number(req.headers['x-team-id']);
  const url = new URL(req.url, 'http://floor');
  const one = url.pathname.match(/^\/v1\/environments\/([0-9a-f-]{36})$/);
  if (req.method === 'GET' && one) {
    const { rows } = await pool.query({
      name: 'env_get',
      text: `SELECT ${COLUMNS} FROM environments WHERE team_id = $1 AND id = $2`,
      values: [team, one[1]],
    });
    return rows.length ? send(res, 200, { data: resource(rows[0]) }) : send(res, 404, { errors: [{ status: '404' }] });
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
