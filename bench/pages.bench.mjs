// `pnpm bench:pages`: whether a page's cost grows with the team. Through the gateway, on a
// private copy of the system, GET /v1/environments?page[size]=100 in a team of 100
// environments and in a team of 100,000 (seeded by SQL: half with a position, half
// without, as the default order is position then creation), page 1, offset pages 500
// and 1,000, and cursor pages at the same depths. Rounds alternate the cases, so a noisy
// machine slows them alike; compare the ratios to the small team's page 1.
//   BENCH_DURATION=5 BENCH_CONNECTIONS=8 BENCH_ROUNDS=2 BENCH_ROWS=100000 pnpm bench:pages
import os from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { startApiStack } from './support.mjs';

const duration = Number(process.env.BENCH_DURATION ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 8);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const bigRows = Number(process.env.BENCH_ROWS ?? 100_000);

const { system, envs } = await startApiStack();

try {
  /** A new team with `rows` environments (inserted by SQL) and an admin key for it. */
  async function team(name, rows) {
    const cli = (...args) => system.cli(envs.auth, ...args);
    const created = cli('teams', 'create', '--name', name);
    const id = created.team?.id ?? created.id;
    // Rate limits out of the way, as startApiStack's key has them.
    const limits = ['--rate-limit-read', '1000000', '--rate-limit-write', '1000000'];
    const key = cli('api-keys', 'create', '--team-id', String(id), '--name', name, '--role', 'admin', ...limits);
    const db = new pg.Client({ connectionString: envs['incident-config'].DATABASE_URL });
    await db.connect();
    await db.query(
      `insert into environments (team_id, name, slug, description, position, created_at)
       select $1, 'Environment ' || g, 'environment-' || g, 'seeded', case when g <= $2 / 2 then g end,
              now() - interval '1 day' + g * interval '1 ms'
       from generate_series(1, $2::int) g`,
      [id, rows],
    );
    await db.query('analyze environments');
    await db.end();
    return { id, token: key.api_key?.token ?? key.token };
  }
  const small = await team('pages-small', 100);
  const big = await team('pages-big', bigRows);

  const base = `${envs.urls.gateway}/v1/environments?page[size]=100`;
  const get = (t, url) => fetch(url, { headers: { authorization: `Bearer ${t.token}` } }).then((r) => r.json());
  /** The cursor that continues after offset page `n - 1`: the start of page `n`. */
  const cursorAt = async (t, n) => (await get(t, `${base}&page[number]=${n - 1}`)).meta.next_cursor;
  const cases = {
    'small, page 1': [small, `${base}&page[number]=1`],
    'big, page 1': [big, `${base}&page[number]=1`],
    'big, page 500': [big, `${base}&page[number]=500`],
    'big, page 1000': [big, `${base}&page[number]=1000`],
    'big, cursor at page 500': [big, `${base}&page[after]=${await cursorAt(big, 500)}`],
    'big, cursor at page 1000': [big, `${base}&page[after]=${await cursorAt(big, 1000)}`],
  };
  for (const [name, [t, url]] of Object.entries(cases)) {
    const body = await get(t, url);
    if (body.data?.length !== 100)
      throw new Error(`${name}: expected 100 environments, got ${body.data?.length} (${JSON.stringify(body.errors)})`);
  }
  const run = (t, url) =>
    new Promise((resolve, reject) => {
      autocannon({ url, connections, duration, headers: { authorization: `Bearer ${t.token}` } }, (err, r) =>
        err ? reject(err) : resolve(r),
      );
    });
  const results = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  const loadBefore = os.loadavg()[0];
  for (let round = 0; round <= rounds; round++) {
    for (const [name, [t, url]] of Object.entries(cases)) {
      const r = await run(t, url);
      if (round > 0) results[name].push(r); // round 0 warms up
    }
  }
  const loadAfter = os.loadavg()[0];
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const rps = (name) => median(results[name].map((r) => r.requests.average));
  const reference = rps('small, page 1');
  console.log(
    `\nGET /v1/environments?page[size]=100 through the gateway, ${connections} connections, ${duration}s, median of ${rounds} rounds; ` +
      `load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after (${os.cpus().length} CPUs)`,
  );
  console.table(
    Object.fromEntries(
      Object.keys(cases).map((name) => [
        name,
        {
          rps: Math.round(rps(name)),
          p50_ms: median(results[name].map((r) => r.latency.p50)),
          p99_ms: median(results[name].map((r) => r.latency.p99)),
          vs_small_page_1: Number((rps(name) / reference).toFixed(2)),
          non2xx: results[name].reduce((n, r) => n + r.non2xx, 0),
        },
      ]),
    ),
  );
} finally {
  await system.cleanup();
}
