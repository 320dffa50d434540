import { randomUUID } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import { createNotificationAttemptsRepository } from '../../src/data/notification-attempts.repository.js';
import { emailContent } from '../../src/domain/notifications/notification-message.js';
import { startOnCall, type OnCallHarness } from '../support/on-call-harness.js';
import { seedUsers } from '../support/users.fixture.js';

/** A page of a big team for an alert with a big payload: what the send job's claim reads of it. */
let h: OnCallHarness;
let one: Knex;
beforeAll(async () => {
  h = await startOnCall();
  // One connection: its socket's bytes are the claim's.
  one = knexFactory({ client: 'pg', connection: (h.db.knex as Knex).client.config.connection, pool: { min: 1, max: 1 } });
});
afterAll(async () => {
  await one?.destroy();
  await h?.close();
});

/** Bytes the claim read from PostgreSQL on `one`'s connection. */
async function bytesRead<T>(work: () => Promise<T>): Promise<{ result: T; bytes: number }> {
  const client = (await one.client.acquireConnection()) as { connection: { stream: { bytesRead: number } } };
  await one.client.releaseConnection(client);
  const before = client.connection.stream.bytesRead;
  const result = await work();
  return { result, bytes: client.connection.stream.bytesRead - before };
}

describe("the send job's claim", () => {
  it('reads what the messages of 100 attempts of one alert read of it, not its payload once an attempt', async () => {
    const knex = h.db.knex as Knex;
    const users = Array.from({ length: 100 }, (_, i) => ({ team_id: 1, user_id: 1000 + i, name: `U${i}`, email: `u${i}@example.test` }));
    await seedUsers(knex, users);
    // An ingested payload as stored (the ingest route takes up to 512 KB).
    const data = { blob: 'x'.repeat(400_000) };
    const [alert] = (await knex('alerts')
      .insert({
        team_id: 1,
        short_id: `ALR-${randomUUID().slice(0, 8)}`,
        source: 'api',
        deduplication_scope: 'api',
        status: 'triggered',
        summary: 'disk full',
        description: 'on db-1',
        external_url: 'https://grafana.example/d/1',
        data: JSON.stringify(data),
        started_at: new Date(),
      })
      .returning('*')) as Record<string, unknown>[];
    const paging = randomUUID();
    await knex('alert_pagings').insert({
      id: paging,
      team_id: 1,
      alert_id: alert!.id,
      run: 1,
      plan: JSON.stringify({}),
      state: 'active',
    });
    await knex('alert_notification_attempts').insert(
      users.map((u) => ({
        team_id: 1,
        alert_id: alert!.id,
        alert_paging_id: paging,
        user_id: u.user_id,
        channel: 'email',
        address: u.email,
        notification_type: 'audible',
        level_position: 1,
        due_at: new Date(Date.now() - 1000),
        status: 'due',
      })),
    );

    const store = createNotificationAttemptsRepository(one);
    const { result: claimed, bytes } = await bytesRead(() => store.claimAttempts(new Date(), 100, 60_000, 4));

    expect(claimed).toHaveLength(100);
    // Every message says the same of the alert as its stored row does.
    const urls = { acknowledge: 'https://a.test/ack', resolve: 'https://a.test/res' };
    const request = (a: (typeof claimed)[number]) => ({
      team_id: 1,
      alert: a.alert,
      user: a.user,
      channel: a.channel,
      address: a.address,
      contact_method_id: a.contact_method_id,
      attempt_id: a.id,
      notification_type: a.notification_type,
    });
    for (const a of claimed) expect(emailContent(request(a), urls)).toEqual(emailContent({ ...request(a), alert }, urls));
    // The payload is not read once an attempt: 100 × 400 KB was 40 MB a claim.
    expect(bytes).toBeLessThan(1_000_000);
  });
});
