import { randomUUID } from 'node:crypto';
import { createGroupingStore } from '../src/data/alert-grouping.repository.js';
import { ingest } from './support/ingest.js';
import { startOnCall, type OnCallHarness } from './support/on-call-harness.js';

let h: OnCallHarness;

beforeAll(async () => {
  h = await startOnCall();
});

afterAll(async () => h?.close());

type Attributes = Record<string, unknown>;

/** Each test in a team of its own: grouping reads all the team's groups. */
let nextTeam = 500;
const team = () => ({ principal: { team_id: nextTeam++ } });

const SAME_TITLE = {
  property_field_type: 'attribute',
  property_field_name: 'summary',
  property_field_condition_type: 'matches_existing_alert',
};

async function group(as: { principal: { team_id: number } }, attributes: Attributes): Promise<string> {
  const res = await h.create('alert_groups', { name: `group ${randomUUID()}`, ...attributes }, as);
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

async function raise(as: { principal: { team_id: number } }, attributes: Attributes): Promise<{ id: string; attributes: Attributes }> {
  const res = await h.create('alerts', attributes, as);
  expect(res.status).toBe(201);
  return res.body.data;
}

const timeline = async (id: string, as: { principal: { team_id: number } }) =>
  ((await h.call('GET', `/v1/alerts/${id}/events`, as)).body.data as { attributes: Attributes }[]).map((e) => e.attributes);

const read = async (id: string, as: { principal: { team_id: number } }) =>
  (await h.call('GET', `/v1/alerts/${id}`, as)).body.data.attributes as Attributes;

/** The alert an ingestion answered (202), as read back. */
const ingested = async (as: { principal: { team_id: number } }, answer: { status: number; body: { data: { id: string }[] } }) => {
  expect(answer.status).toBe(202);
  return read(answer.body.data[0].id, as);
};

const evaluate = async (as: { principal: { team_id: number } }, attributes: Attributes) =>
  (await h.call('POST', '/v1/alert_groups/evaluate', { ...as, body: { data: { type: 'alert_group_evaluations', attributes } } })).body.data
    .attributes;

describe('alert grouping at intake', () => {
  it('makes the first matching alert a leader and the next within the window its member, on both timelines', async () => {
    const as = team();
    await group(as, { time_window: 30, conditions: [SAME_TITLE] });
    const leader = await raise(as, { summary: 'db down' });
    expect(leader.attributes).toMatchObject({ is_group_leader_alert: true, group_leader_alert_id: null });

    const member = await raise(as, { summary: 'db down' });
    expect(member.attributes).toMatchObject({ is_group_leader_alert: false, group_leader_alert_id: leader.id });
    // Another title meets the group's conditions only with itself: it leads a group of its own.
    const other = await raise(as, { summary: 'cpu high' });
    expect(other.attributes).toMatchObject({ is_group_leader_alert: true, group_leader_alert_id: null });

    expect(await timeline(member.id, as)).toContainEqual(
      expect.objectContaining({ action: 'updated', details: `Grouped under leader alert ${leader.id}.` }),
    );
    expect((await timeline(leader.id, as)).map((e) => e.details)).toContainEqual(
      expect.stringContaining(`(${member.id}) joined this group`),
    );
    const read = await h.call('GET', `/v1/alerts/${member.id}`, as);
    expect(read.body.data.attributes).toMatchObject({ group_leader_alert_id: leader.id, is_group_leader_alert: false });
  });

  it('leaves an alert that meets no group alone, and an alert of a team without groups', async () => {
    const as = team();
    await group(as, {
      conditions: [{ property_field_name: 'summary', property_field_condition_type: 'contains', property_field_value: 'db' }],
    });
    const alone = await raise(as, { summary: 'web slow' });
    expect(alone.attributes).toMatchObject({ is_group_leader_alert: false, group_leader_alert_id: null });
    const ungrouped = await raise(team(), { summary: 'db down' });
    expect(ungrouped.attributes).toMatchObject({ is_group_leader_alert: false, group_leader_alert_id: null });
  });

  it('makes a new leader once the window has passed, and once the leader is resolved (its members stay with it)', async () => {
    const as = team();
    await group(as, { time_window: 5, conditions: [SAME_TITLE] });
    const old = await raise(as, { summary: 'disk full' });
    await h.db
      .knex('alerts')
      .where({ id: old.id })
      .update({ created_at: h.db.knex.raw(`now() - interval '6 minutes'`) });
    const fresh = await raise(as, { summary: 'disk full' });
    expect(fresh.attributes).toMatchObject({ is_group_leader_alert: true, group_leader_alert_id: null });

    const member = await raise(as, { summary: 'disk full' });
    expect(member.attributes.group_leader_alert_id).toBe(fresh.id);
    const resolved = await h.call('POST', `/v1/alerts/${fresh.id}/resolve`, { ...as, body: { data: { type: 'alerts' } } });
    expect(resolved.status).toBe(200);
    const next = await raise(as, { summary: 'disk full' });
    expect(next.attributes).toMatchObject({ is_group_leader_alert: true, group_leader_alert_id: null });
    expect((await h.call('GET', `/v1/alerts/${member.id}`, as)).body.data.attributes.group_leader_alert_id).toBe(fresh.id);
  });

  it('makes one leader of concurrent matching alerts', async () => {
    const as = team();
    await group(as, { time_window: 60, conditions: [SAME_TITLE] });
    const alerts = await Promise.all(Array.from({ length: 8 }, () => raise(as, { summary: 'stampede' })));
    const leaders = alerts.filter((a) => a.attributes.is_group_leader_alert);
    expect(leaders).toHaveLength(1);
    for (const a of alerts.filter((x) => x !== leaders[0])) expect(a.attributes.group_leader_alert_id).toBe(leaders[0].id);
  });

  it("narrows a same-summary group's lock to the summary: another title does not wait, the same title does", async () => {
    const as = team();
    const groupId = await group(as, { time_window: 60, conditions: [SAME_TITLE] });
    // Another transaction holds the lock of the group's "disk full" alerts.
    const holder = await h.db.knex.transaction();
    await createGroupingStore().lockGroup(holder, as.principal.team_id, groupId, 'disk full');
    const settled = (p: Promise<unknown>, ms: number) =>
      Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);
    try {
      const other = raise(as, { summary: 'cpu high' });
      expect(await settled(other, 5_000)).toBe(true);
      expect((await other).attributes.is_group_leader_alert).toBe(true);
      const same = raise(as, { summary: 'disk full' });
      expect(await settled(same, 500)).toBe(false);
      await holder.commit();
      expect((await same).attributes.is_group_leader_alert).toBe(true);
    } finally {
      if (!holder.isCompleted()) await holder.rollback();
    }
  });

  it('groups ingested alerts with the engine evaluate answers with', async () => {
    const as = team();
    const groupId = await group(as, {
      time_window: 60,
      condition_type: 'all',
      conditions: [
        SAME_TITLE,
        { property_field_name: 'summary', property_field_condition_type: 'starts_with', property_field_value: 'db' },
      ],
    });
    const source = await h.create('alert_sources', { name: `source ${randomUUID()}`, alert_template_attributes: { title: '$.title' } }, as);
    const { id: sourceId, attributes } = source.body.data as { id: string; attributes: { secret: string } };
    const leader = await raise(as, { summary: 'db slow' });

    const joins = await evaluate(as, { alert: { summary: 'db slow' }, existing_alerts: [{ summary: 'db slow', alert_group_id: groupId }] });
    expect(joins.alert_group_id).toBe(groupId);
    expect(await ingested(as, await ingest(h, sourceId, attributes.secret, { title: 'db slow' }))).toMatchObject({
      group_leader_alert_id: leader.id,
      is_group_leader_alert: false,
    });

    const refused = await evaluate(as, {
      alert: { summary: 'web slow' },
      existing_alerts: [{ summary: 'web slow', alert_group_id: groupId }],
    });
    expect(refused.alert_group_id).toBeNull();
    expect(await ingested(as, await ingest(h, sourceId, attributes.secret, { title: 'web slow' }))).toMatchObject({
      group_leader_alert_id: null,
      is_group_leader_alert: false,
    });
  });

  it("finds a same-summary leader however many other titles lead in the group's window", async () => {
    const as = team();
    await group(as, { time_window: 60, conditions: [SAME_TITLE] });
    const source = await h.create('alert_sources', { name: `am ${randomUUID()}`, source_type: 'alertmanager' }, as);
    const { id: sourceId, attributes } = source.body.data as { id: string; attributes: { secret: string } };
    const firing = (n: number) => ({ status: 'firing', fingerprint: `f${n}`, labels: { alertname: `Title ${n}` } });
    // 120 leaders, one per title: the last, in a payload of its own, is the newest.
    for (const [from, length] of [
      [0, 60],
      [60, 59],
      [119, 1],
    ]) {
      const answer = await ingest(h, sourceId, attributes.secret, { alerts: Array.from({ length }, (_, i) => firing(from + i)) });
      expect(answer.status).toBe(202);
    }
    const late = await ingest(h, sourceId, attributes.secret, { alerts: [{ ...firing(119), fingerprint: 'again' }] });
    const member = await ingested(as, late);
    expect(member.is_group_leader_alert).toBe(false);
    expect(member.group_leader_alert_id).not.toBeNull();
  });

  it('takes concurrent notifications whose alerts name the same titles in other orders, without a deadlock', async () => {
    const as = team();
    await group(as, { time_window: 60, conditions: [SAME_TITLE] });
    const source = await h.create('alert_sources', { name: `am ${randomUUID()}`, source_type: 'alertmanager' }, as);
    const { id: sourceId, attributes } = source.body.data as { id: string; attributes: { secret: string } };
    const firing = (fingerprint: string, alertname: string) => ({ status: 'firing', fingerprint, labels: { alertname } });
    // Keys in one order, titles in the other: each notification's second alert wants the title the other's first took.
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => [
        ingest(h, sourceId, attributes.secret, { alerts: [firing(`${i}-a`, `X${i}`), firing(`${i}-b`, `Y${i}`)] }),
        ingest(h, sourceId, attributes.secret, { alerts: [firing(`${i}-c`, `Y${i}`), firing(`${i}-d`, `X${i}`)] }),
      ]).flat(),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 202));
  });

  it('groups the alerts of one Alertmanager notification among themselves, in its one transaction', async () => {
    const as = team();
    await group(as, { time_window: 60, conditions: [SAME_TITLE] });
    const source = await h.create('alert_sources', { name: `am ${randomUUID()}`, source_type: 'alertmanager' }, as);
    const { id: sourceId, attributes } = source.body.data as { id: string; attributes: { secret: string } };
    const firing = (fingerprint: string) => ({ status: 'firing', fingerprint, labels: { alertname: 'DiskFull', host: fingerprint } });
    const answer = await ingest(h, sourceId, attributes.secret, { alerts: ['a', 'b', 'c'].map(firing) });
    expect(answer.status).toBe(202);
    const placed: (Attributes & { id: string })[] = await Promise.all(
      (answer.body.data as { id: string }[]).map(async ({ id }) => ({ id, ...(await read(id, as)) })),
    );
    const leaders = placed.filter((a) => a.is_group_leader_alert);
    expect(leaders).toHaveLength(1);
    expect(placed.filter((a) => a.group_leader_alert_id === leaders[0].id)).toHaveLength(2);
  });
});
