// `node bench/shift-started-tick.bench.mjs` (after tsc -b): the shift.started scheduler's tick over 500 schedules,
// 10,000 rotations (2,000 ended) and 50,000 members in a throwaway database (dropped at the end): wall time per tick
// and the longest the event loop was blocked, then a sweep tick a minute on. sched-fix, 2 cores: 530-950 ms a tick, at most
// 34-175 ms blocked (typically 40-65 ms), the sweep tick 800 ms / 50 ms
// (before the batching: 3.4-4.0 s a tick, 3.1-3.8 s blocked).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createDb, openDatabase } from '../libs/db/dist/index.js';
import { migrations } from '../services/on-call/dist/migrations/index.js';
import { createShiftInputsRepository } from '../services/on-call/dist/src/data/shift-inputs.repository.js';
import { createShiftStartsRepository } from '../services/on-call/dist/src/data/shift-starts.repository.js';
import { createUsersRepository } from '../services/on-call/dist/src/data/users.repository.js';
import { createShiftStartedJob } from '../services/on-call/dist/src/jobs/shift-started.job.js';

const knex = await openDatabase({ url: 'postgres://postgres@127.0.0.1:5432/shift_started_tick_bench', migrations });
if (!(await knex('schedules').count('* as n').first()).n > 0 || Number((await knex('schedules').count('* as n').first()).n) === 0) {
  const schedules = Array.from({ length: 500 }, (_, i) => ({ team_id: 1 + (i % 10), name: `S${i}`, owner_user_id: 1 }));
  const sids = (await knex.batchInsert('schedules', schedules, 500).returning('id')).map((r) => r.id);
  const rotations = [];
  sids.forEach((sid, s) => {
    for (let r = 0; r < 20; r++)
      rotations.push({
        team_id: 1 + (s % 10),
        schedule_id: sid,
        name: `R${r}`,
        position: r,
        time_zone: ['Europe/Berlin', 'America/New_York', 'Etc/UTC'][r % 3],
        schedule_rotationable_type: r % 2 ? 'ScheduleDailyRotation' : 'ScheduleCustomRotation',
        schedule_rotationable_attributes:
          r % 2
            ? { handoff_time: `${String(r).padStart(2, '0')}:00` }
            : { shift_length: 1 + (r % 4), shift_length_unit: 'hours', handoff_time: '00:00' },
        start_time: new Date('2026-01-01T00:00:00Z'),
        end_time: r % 5 === 4 ? new Date('2026-02-01T00:00:00Z') : null,
      });
  });
  const rids = (await knex.batchInsert('schedule_rotations', rotations, 1000).returning('id')).map((r) => r.id);
  const members = [];
  rids.forEach((rid, i) => {
    for (let m = 0; m < 5; m++)
      members.push({ team_id: 1 + (Math.floor(i / 20) % 10), schedule_rotation_id: rid, user_id: 1 + ((i * 5 + m) % 5000), position: m });
  });
  await knex.batchInsert('schedule_rotation_users', members, 2000);
}
const logger = { info() {}, warn: (...a) => console.log('WARN', ...a), error: (...a) => console.log('ERROR', ...a), debug() {} };
let now = Math.floor(Date.now() / 3_600_000) * 3_600_000 + 1000;
await knex('shift_starts').delete();
await knex('shift_scheduler_state').delete();
const job = createShiftStartedJob({
  shifts: createShiftInputsRepository(knex, createUsersRepository(), logger),
  store: createShiftStartsRepository(knex),
  logger,
  intervalMs: 2000,
  catchUpMs: 3_600_000,
  lateAfterMs: 60_000,
  overlapMs: 60_000,
  now: () => now,
});
const h = monitorEventLoopDelay({ resolution: 5 });
for (let i = 0; i < 4; i++) {
  h.reset();
  h.enable();
  const t = performance.now();
  const n = await job.tick();
  h.disable();
  console.log(
    `tick ${i}: ${(performance.now() - t).toFixed(0)} ms, announced ${n}, event loop max block ${(h.max / 1e6).toFixed(0)} ms, heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`,
  );
  now += i === 3 ? 61_000 : 2000;
}
// The fifth: a minute on, the sweep for shifts that appeared with a past start (every running shift's key checked).
h.reset();
h.enable();
const t = performance.now();
const n = await job.tick();
h.disable();
console.log(
  `tick 4 (sweep): ${(performance.now() - t).toFixed(0)} ms, announced ${n}, event loop max block ${(h.max / 1e6).toFixed(0)} ms`,
);
await knex.destroy();
const admin = createDb('postgres://postgres@127.0.0.1:5432/postgres');
await admin.raw('DROP DATABASE IF EXISTS shift_started_tick_bench');
await admin.destroy();
