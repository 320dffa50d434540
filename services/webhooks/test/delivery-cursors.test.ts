import { randomUUID } from 'node:crypto';
import { startWebhooks, endpoint, type Harness } from './support.js';

let h: Harness;
let epA: string;
let epB: string;
let deliveryId: string;
beforeAll(async () => {
  h = await startWebhooks();
  const create = async (name: string) =>
    (await h.call('POST', '/v1/webhooks/endpoints', { body: endpoint({ name, url: 'https://hooks.example.com/in' }) })).body.data.id;
  epA = await create('a');
  epB = await create('b');
  // Two deliveries share each created_at: seq must break the tie.
  const at = (i: number) => new Date(Date.UTC(2026, 10, 1, 0, 0, Math.floor(i / 2))).toISOString();
  const rows = await h.db
    .knex('webhooks_deliveries')
    .insert(
      Array.from({ length: 9 }, (_, i) => ({
        team_id: 1,
        endpoint_id: i === 8 ? epB : epA,
        event_id: randomUUID(),
        event_type: 'environment.created',
        payload: '{}',
        status: i % 3 === 0 ? 'failed' : 'delivered',
        created_at: at(i),
      })),
    )
    .returning('id');
  deliveryId = rows[0].id;
  await h.db.knex('webhooks_delivery_attempts').insert(
    Array.from({ length: 7 }, (_, i) => ({
      delivery_id: deliveryId,
      attempt_number: i + 1,
      trigger: 'scheduled',
      url: 'https://hooks.example.com/in',
      duration_ms: 1,
    })),
  );
});
afterAll(async () => {
  await h?.close();
});

const get = (path: string, principal?: Record<string, unknown>) => h.call('GET', path, { principal });

async function walk(path: string, query: string): Promise<string[]> {
  const ids: string[] = [];
  let page = await get(`${path}?${query}&page[size]=2`);
  for (;;) {
    expect(page.status).toBe(200);
    ids.push(...page.body.data.map((r: any) => r.id));
    const cursor = page.body.meta.next_cursor;
    if (cursor === undefined) return ids;
    page = await get(`${path}?${query}&page[size]=2&page[after]=${cursor}`);
    expect(page.body.meta.total_count).toBeNull();
  }
}

describe('delivery and attempt lists by cursor', () => {
  it.each(['sort=created_at', 'sort=-created_at', 'filter[status]=failed'])(
    'walk an endpoint’s deliveries as one offset page does (%s)',
    async (query) => {
      const path = `/v1/webhooks/endpoints/${epA}/deliveries`;
      const all = (await get(`${path}?${query}&page[size]=100`)).body.data.map((r: any) => r.id);
      expect(all.length).toBeGreaterThan(2);
      expect(await walk(path, query)).toEqual(all);
    },
  );

  it('continue after deliveries deleted and added between pages', async () => {
    const path = `/v1/webhooks/endpoints/${epA}/deliveries`;
    const before = (await get(`${path}?sort=created_at&page[size]=100`)).body.data.map((r: any) => r.id);
    const first = await get(`${path}?sort=created_at&page[size]=3`);
    await h.db.knex('webhooks_deliveries').whereIn('id', [before[2], before[4]]).delete();
    const [late] = await h.db
      .knex('webhooks_deliveries')
      .insert({ team_id: 1, endpoint_id: epA, event_id: randomUUID(), event_type: 'environment.created', payload: '{}' })
      .returning('id');
    const rest: string[] = [];
    for (let cursor = first.body.meta.next_cursor; cursor !== undefined;) {
      const page = await get(`${path}?sort=created_at&page[size]=3&page[after]=${cursor}`);
      rest.push(...page.body.data.map((r: any) => r.id));
      cursor = page.body.meta.next_cursor;
    }
    expect(rest).toEqual([...before.slice(3).filter((id: string) => id !== before[4]), late.id]);
  });

  it('refuse a cursor of another endpoint, status filter or sort, or of deliveries for attempts', async () => {
    const cursor = (await get(`/v1/webhooks/endpoints/${epA}/deliveries?page[size]=1`)).body.meta.next_cursor;
    for (const path of [
      `/v1/webhooks/endpoints/${epB}/deliveries?page[after]=${cursor}`,
      `/v1/webhooks/endpoints/${epA}/deliveries?filter[status]=failed&page[after]=${cursor}`,
      `/v1/webhooks/endpoints/${epA}/deliveries?sort=created_at&page[after]=${cursor}`,
      `/v1/webhooks/deliveries/${deliveryId}/attempts?page[after]=${cursor}`,
    ]) {
      const res = await get(path);
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ code: 'invalid_cursor', source: { parameter: 'page[after]' } });
    }
  });

  it('walk a delivery’s attempts in attempt order', async () => {
    const path = `/v1/webhooks/deliveries/${deliveryId}/attempts`;
    const all = await get(`${path}?page[size]=100`);
    expect(all.body.meta).toMatchObject({ total_count: 7 });
    expect(all.body.meta.next_cursor).toBeUndefined();
    expect(await walk(path, '')).toEqual(all.body.data.map((r: any) => r.id));
  });
});
