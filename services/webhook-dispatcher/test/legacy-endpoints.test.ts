import type { Knex } from 'knex';
import { migrate } from '@firewatch/db';
import { createTestDatabase, type TestDatabase } from '@firewatch/testing';
import { migrations } from '@firewatch/webhooks/shared';
import { createIntakeRepository } from '../src/data/intake.repository.js';
import { envelope, insertEndpoint } from './support.js';

const REVIEW = '20261220-0004-webhooks-endpoints-admin-review';
let db: TestDatabase;
let knex: Knex;

beforeAll(async () => {
  db = await createTestDatabase('fw_disp_legacy');
  knex = db.knex as Knex;
  // The schema as it was while any credential could make endpoints.
  await migrate(knex, Object.fromEntries(Object.entries(migrations).filter(([name]) => name < REVIEW)));
});
afterAll(async () => {
  await db?.drop();
});

describe('endpoints made before webhooks were for unrestricted admins only', () => {
  it('are disabled until an admin enables them, so admin-only and private events reach only endpoints made since', async () => {
    const before = [
      await insertEndpoint(knex, {
        team_id: 1,
        url: 'https://user-made.example.com/keys',
        event_types: ['api_key.created', 'incident.created'],
      }),
      await insertEndpoint(knex, { team_id: 1, url: 'https://user-made.example.com/all' }),
    ];
    const gone = await insertEndpoint(knex, { team_id: 1, url: 'https://gone.example.com/' });
    await knex('webhooks_endpoints').where({ id: gone.id }).update({ enabled: false, disabled_reason: 'the receiver answered 410 Gone' });

    expect(await migrate(knex, migrations)).toContain(REVIEW);
    const rows = await knex('webhooks_endpoints')
      .whereIn(
        'id',
        [...before, gone].map((e) => e.id),
      )
      .orderBy('url')
      .select('url', 'enabled', 'disabled_reason');
    expect(rows.map((r) => [r.url, r.enabled, r.disabled_reason.split(':')[0]])).toEqual([
      ['https://gone.example.com/', false, 'the receiver answered 410 Gone'],
      ['https://user-made.example.com/all', false, 'admin review'],
      ['https://user-made.example.com/keys', false, 'admin review'],
    ]);

    // Only an unrestricted admin can make an endpoint now (services/webhooks admin-only.test.ts).
    const admins = await insertEndpoint(knex, { team_id: 1, url: 'https://admin.example.com/keys', event_types: ['api_key.created'] });
    const events = [
      envelope(1, 'api_key.created', { id: 'k', type: 'api_keys', attributes: { name: 'deploy' } }),
      envelope(1, 'incident.created'),
    ];
    expect(await createIntakeRepository(knex).store(events)).toMatchObject({ count: 1 });
    const deliveries = await knex('webhooks_deliveries').select('endpoint_id', 'event_type');
    expect(deliveries).toEqual([{ endpoint_id: admins.id, event_type: 'api_key.created' }]);
  });
});
