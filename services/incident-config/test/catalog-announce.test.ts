import { Writable } from 'node:stream';
import type { Knex } from 'knex';
import { OUTBOX_TABLE, type EventEnvelope, type EventInput } from '@firewatch/events';
import { runCli } from '../src/cli/cli.js';
import { createCatalogAnnounce } from '../src/domain/catalog/catalog-announce.js';
import { startIncidentConfig, type IncidentConfigHarness } from './support/incident-config-harness.js';

let h: IncidentConfigHarness;
let knex: Knex;

beforeAll(async () => {
  h = await startIncidentConfig();
  knex = h.db.knex as Knex;
});
afterAll(async () => {
  await h?.close();
});

/** Runs the command line as a shell would, against the harness's database; its exit code and output. */
async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const sink = () => {
    const chunks: string[] = [];
    const stream = new Writable({ write: (c: Buffer, _e, done) => (chunks.push(c.toString()), done()) });
    return { stream, text: () => chunks.join('') };
  };
  const [out, err] = [sink(), sink()];
  const code = await runCli(argv, { DATABASE_URL: h.db.url }, { stdout: out.stream, stderr: err.stream });
  return { code, out: out.text(), err: err.text() };
}

const lastSeq = async (): Promise<number> => Number((await knex(OUTBOX_TABLE).max('seq as seq').first())?.seq ?? 0);
const eventsSince = async (seq: number): Promise<EventEnvelope[]> =>
  (await knex(OUTBOX_TABLE).where('seq', '>', seq).orderBy('seq')).map((r: { payload: EventEnvelope }) => r.payload);

async function created(path: string, name: string, team_id = 1): Promise<string> {
  const res = await h.call('POST', path, { body: { data: { type: path.slice(4), attributes: { name } } }, principal: { team_id } });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}
const answered = async (path: string, id: string, team_id: number) =>
  (await h.call('GET', `${path}/${id}`, { principal: { team_id } })).body.data;

describe('announce (the backfill of read models made after the catalog)', () => {
  it("re-sends every service and functionality as <family>.updated, as the API answers it, of every team or one team's", async () => {
    const mine = [await created('/v1/services', 'Payments'), await created('/v1/services', 'Search')];
    const feature = await created('/v1/functionalities', 'Checkout');
    const theirs = await created('/v1/services', 'Payments', 2);
    const before = await lastSeq();

    const all = await cli('announce');
    expect(all).toMatchObject({ code: 0, err: '' });
    expect(JSON.parse(all.out)).toEqual({ announced: { services: 3, functionalities: 1 } });
    const events = await eventsSince(before);
    expect(events.map((e) => [e.type, e.team_id, (e.data as { id: string }).id])).toEqual([
      ...[...mine.map((id) => ['service.updated', 1, id]), ['service.updated', 2, theirs]].sort((a, b) =>
        String(a[2]).localeCompare(String(b[2])),
      ),
      ['functionality.updated', 1, feature],
    ]);
    // The resource object a real update would carry, and the records are not touched.
    for (const id of mine)
      expect(events.find((e) => (e.data as { id: string }).id === id)!.data).toEqual(await answered('/v1/services', id, 1));
    expect(events.find((e) => (e.data as { id: string }).id === theirs)!.data).toEqual(await answered('/v1/services', theirs, 2));
    expect(events.at(-1)!.data).toEqual(await answered('/v1/functionalities', feature, 1));

    const one = await lastSeq();
    const team2 = await cli('announce', '--team-id', '2');
    expect(JSON.parse(team2.out)).toEqual({ announced: { services: 1, functionalities: 0 } });
    expect((await eventsSince(one)).map((e) => [e.type, e.team_id, (e.data as { id: string }).id])).toEqual([
      ['service.updated', 2, theirs],
    ]);
  });

  it('refuses a wrong call with exit code 2 and writes nothing', async () => {
    const before = await lastSeq();
    for (const argv of [['announce', '--team-id', 'x'], ['announce', '--team-id', '0'], ['announce', '--all'], ['frobnicate']]) {
      const answer = await cli(...argv);
      expect(answer.code).toBe(2);
      expect(answer.err).toMatch(/^incident-config: .*\nUsage: /);
    }
    expect(await lastSeq()).toBe(before);
    expect(
      await runCli(
        ['announce'],
        {},
        { stdout: new Writable({ write: (_c, _e, d) => d() }), stderr: new Writable({ write: (_c, _e, d) => d() }) },
      ),
    ).toBe(1);
  });

  it('pages through any number of records, one transaction per page', async () => {
    const rows = Array.from({ length: 1001 }, (_, i) => ({ id: `id-${String(i).padStart(5, '0')}`, team_id: 3, name: `S${i}` }));
    const writes: (readonly EventInput[])[] = [];
    const announce = createCatalogAnnounce({
      async page(table, afterId, limit) {
        return table === 'services' ? rows.filter((r) => afterId === null || r.id > afterId).slice(0, limit) : [];
      },
      async write(events) {
        writes.push(events);
      },
    });
    expect(await announce.announce()).toEqual({ services: 1001, functionalities: 0 });
    expect(writes.map((w) => w.length)).toEqual([500, 500, 1]);
    expect(writes.flat().map((e) => (e.data as { id: string }).id)).toEqual(rows.map((r) => r.id));
  });
});
