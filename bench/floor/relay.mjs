// The floor's outbox relay (issue 26): claims up to 100 outbox rows in a transaction,
// publishes each, persistent, on a confirm channel, waits for the broker's confirms and
// deletes the rows by committing. Claims again at once while it finds rows; when the outbox is
// empty it waits 10 ms, doubling up to 200 ms while it stays empty (ours is woken by NOTIFY).
// At a fixed 10 ms its idle polls (and its database's answers) took some 4 % of the machine
// from whichever system was measured: in a create run only from Firewatch, whose own relay
// is idle at no cost while the floor's are measured. Left out: retries with backoff, ordering keys, metrics.
//   PORT (readiness only), DATABASE_URL, AMQP_URL, EXCHANGE
import http from 'node:http';
import { createRequire } from 'node:module';
import pg from 'pg';

const amqp = createRequire(new URL('../../services/webhook-dispatcher/package.json', import.meta.url))('amqplib');
const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
await db.connect();
const conn = await amqp.connect(process.env.AMQP_URL);
const channel = await conn.createConfirmChannel();
const exchange = process.env.EXCHANGE;

async function drain() {
  await db.query('BEGIN');
  try {
    const { rows } = await db.query(
      'DELETE FROM outbox WHERE id IN (SELECT id FROM outbox ORDER BY id LIMIT 100 FOR UPDATE SKIP LOCKED) RETURNING routing_key, payload',
    );
    for (const r of rows) channel.publish(exchange, r.routing_key, Buffer.from(JSON.stringify(r.payload)), { persistent: true });
    if (rows.length) await channel.waitForConfirms();
    await db.query('COMMIT');
    return rows.length;
  } catch (err) {
    await db.query('ROLLBACK');
    throw err;
  }
}

http.createServer((req, res) => res.end('ok')).listen(Number(process.env.PORT), '127.0.0.1');
let idleMs = 10;
for (;;) {
  if ((await drain()) > 0) idleMs = 10;
  else {
    await new Promise((r) => setTimeout(r, idleMs));
    idleMs = Math.min(idleMs * 2, 200);
  }
}
