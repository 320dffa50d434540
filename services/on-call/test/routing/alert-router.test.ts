import { randomUUID } from 'node:crypto';
import { createAlertRoutingRepository } from '../../src/data/alert-routing.repository.js';
import { createAlertRouter } from '../../src/domain/routing/alert-router.js';
import { startOnCall, type OnCallHarness } from '../support/on-call-harness.js';
import { seedService as seedServiceIn } from '../support/targets.fixture.js';

let h: OnCallHarness;

beforeAll(async () => {
  h = await startOnCall();
});

afterAll(async () => h?.close());

const router = createAlertRouter(createAlertRoutingRepository());

const seedService = () => seedServiceIn(h.db.knex);

const aSource = async () =>
  (await h.create('alert_sources', { name: `Source ${randomUUID().slice(0, 6)}`, source_type: 'generic_webhook' })).body.data.id as string;

const route = (teamId: number, alert: Record<string, unknown>) => h.db.knex.transaction((tx) => router.route(tx, teamId, alert));

describe('the alert router over stored routes', () => {
  it("routes a source's alerts by its routes, then its legacy rules, and nothing of another team", async () => {
    const [source, db, rest, legacyTarget] = [await aSource(), await seedService(), await seedService(), await seedService()];
    const created = await h.create('alert_routes', {
      name: 'Databases',
      alerts_source_ids: [source],
      rules: [
        {
          name: 'Disk',
          position: 1,
          destinations: [{ target_type: 'Service', target_id: db }],
          condition_groups: [
            {
              conditions: [
                {
                  property_field_type: 'payload',
                  property_field_name: '$.labels.team',
                  property_field_condition_type: 'is_one_of',
                  property_field_values: ['dba'],
                },
              ],
            },
          ],
        },
        { name: 'Rest', fallback_rule: true, destinations: [{ target_type: 'Service', target_id: rest }], condition_groups: [] },
      ],
    });
    expect(created.status).toBe(201);
    const legacy = await h.create('alert_routing_rules', {
      name: 'Legacy',
      alerts_source_id: source,
      destination: { target_type: 'Service', target_id: legacyTarget },
    });
    expect(legacy.status).toBe(201);

    const alert = { alert_source_id: source, summary: 'disk', data: { labels: { team: 'dba' } } };
    expect(await route(1, alert)).toEqual({
      destinations: [{ target_type: 'Service', target_id: db }],
      route: { id: created.body.data.id, name: 'Databases', kind: 'alert_route' },
      rule: { name: 'Disk', position: 1, fallback: false },
    });
    expect((await route(1, { ...alert, data: {} })).rule).toEqual({ name: 'Rest', position: expect.any(Number), fallback: true });
    expect(await route(2, alert)).toEqual({ destinations: [], route: null, rule: null });

    await h.call('PATCH', `/v1/alert_routes/${created.body.data.id}`, {
      body: { data: { type: 'alert_routes', attributes: { enabled: false } } },
    });
    expect(await route(1, alert)).toEqual({
      destinations: [{ target_type: 'Service', target_id: legacyTarget }],
      route: { id: legacy.body.data.id, name: 'Legacy', kind: 'alert_routing_rule' },
      rule: { name: 'Legacy', position: legacy.body.data.attributes.position, fallback: false },
    });
  });

  it('sends an alert naming its own target there, unrouted', async () => {
    const target = { notification_target_type: 'User', notification_target_id: '12' };
    expect(await route(1, { alert_source_id: await aSource(), ...target })).toEqual({
      destinations: [{ target_type: 'User', target_id: '12' }],
      route: null,
      rule: null,
    });
  });
});
