import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  headers: Record<string, string>;
  body: string;
  receivedAt: number;
}

export type Answer = { status: number; headers?: Record<string, string> };

/**
 * A local webhook receiver for end-to-end tests: records every request (headers and the
 * raw body, as a verifier needs it) and answers as `respond` says (200 by default).
 */
export async function startWebhookReceiver(respond: (d: Delivery, n: number) => Answer = () => ({ status: 200 })) {
  const deliveries: Delivery[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const d: Delivery = {
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      deliveries.push(d);
      const answer = respond(d, deliveries.length);
      res.writeHead(answer.status, answer.headers).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    deliveries,
    async waitFor(predicate: (ds: Delivery[]) => boolean, timeoutMs = 15_000, what = 'deliveries') {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(deliveries)) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; have ${deliveries.length}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * Starts this system's team ids at a random high value. Every e2e system publishes to
 * the same `firewatch.events` exchange and would otherwise number its first team 1, so
 * a suite counting "exactly the events of its team" could see another suite's events.
 */
export async function randomizeTeamIds(authDatabaseUrl: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: authDatabaseUrl });
  await client.connect();
  try {
    const start = 1_000_000 + Math.floor(Math.random() * 1_000_000_000);
    await client.query(`SELECT setval(pg_get_serial_sequence('teams', 'id'), $1)`, [start]);
  } finally {
    await client.end();
  }
}
