import { randomUUID } from 'node:crypto';
import { MEDIA, startOnCall, type OnCallHarness } from './support/on-call-harness.js';

let h: OnCallHarness;
let high: string;

const PATH = '/v1/alert_retrigger_rules';
const put = (id: string, attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  h.call('PUT', `${PATH}/${id}`, { body: { data: { type: 'alert_retrigger_rules', attributes, ...extra } } });
const payloadRegex = { kind: 'payload', operator: 'matches_regex', property_field_name: '$.host', values: ['^db-'] };

beforeAll(async () => {
  h = await startOnCall({ eventPattern: 'alert_retrigger_rule.*' });
  high = (await h.create('alert_urgencies', { name: 'High', description: 'now' })).body.data.id;
  // A second urgency, so that a rule naming one of them does not match every alert.
  await h.create('alert_urgencies', { name: 'Low', description: 'later' });
});

afterAll(async () => h?.close());

describe('alert re-trigger rules', () => {
  it('creates, gets, lists, updates with PUT and deletes (200, empty body), each with its event', async () => {
    const created = await h.create('alert_retrigger_rules', {
      name: 'High at night',
      match_mode: 'match-any-rule',
      timeout_minutes: 30,
      position: 3,
      conditions: [{ kind: 'urgency', operator: 'is_one_of', record_ids: [high.toUpperCase()] }, payloadRegex],
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toContain(MEDIA);
    const { id, type, attributes } = created.body.data;
    expect(type).toBe('alert_retrigger_rules');
    expect(attributes).toEqual({
      name: 'High at night',
      match_mode: 'match-any-rule',
      timeout_minutes: 30,
      position: 3,
      conditions: [
        { id: expect.any(String), kind: 'urgency', operator: 'is_one_of', record_ids: [high], values: [] },
        { id: expect.any(String), ...payloadRegex, record_ids: [] },
      ],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });

    expect((await h.call('GET', `${PATH}/${id}`)).body.data.attributes).toEqual(attributes);
    const list = await h.call('GET', PATH);
    expect(list.status).toBe(200);
    expect(list.body.data.map((r: { id: string }) => r.id)).toContain(id);
    expect(list.body).toHaveProperty('links');
    expect(list.body).toHaveProperty('meta');

    const updated = await put(id, { timeout_minutes: null });
    expect(updated.status).toBe(200);
    expect(updated.body.data.attributes).toMatchObject({ name: 'High at night', timeout_minutes: null, conditions: attributes.conditions });

    const deleted = await h.call('DELETE', `${PATH}/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toBeUndefined();
    expect((await h.call('GET', `${PATH}/${id}`)).status).toBe(404);
    expect(await h.db.knex('alert_retrigger_rule_conditions').where({ alert_retrigger_rule_id: id })).toEqual([]);

    await h.events!.waitFor((es) => es.filter((e) => (e.body.data as { id: string }).id === id).length === 3);
    const mine = h.events!.events.filter((e) => (e.body.data as { id: string }).id === id);
    expect(mine.map((e) => e.routingKey)).toEqual([
      'alert_retrigger_rule.created',
      'alert_retrigger_rule.updated',
      'alert_retrigger_rule.deleted',
    ]);
  });

  it('fills what create leaves out: match all, never re-trigger, after the other rules, no conditions', async () => {
    const before = await h.create('alert_retrigger_rules', { name: 'Before', position: 40 });
    const created = await h.create('alert_retrigger_rules', { name: 'Defaults' });
    expect(created.body.data.attributes).toMatchObject({
      match_mode: 'match-all-rules',
      timeout_minutes: null,
      position: 41,
      conditions: [],
    });
    await h.call('DELETE', `${PATH}/${before.body.data.id}`);
    await h.call('DELETE', `${PATH}/${created.body.data.id}`);
  });

  it("puts a rule without position after the team's last, at most 1 000 000; rules sharing a position are tried oldest first", async () => {
    const team = { principal: { team_id: 31 } };
    const last = await h.create('alert_retrigger_rules', { name: 'Last', position: 1_000_000, timeout_minutes: 10 }, team);
    const after = await h.create('alert_retrigger_rules', { name: 'After', timeout_minutes: 20 }, team);
    expect(after.body.data.attributes.position).toBe(1_000_000);
    const { name, position, match_mode, timeout_minutes } = after.body.data.attributes;
    const back = await h.call('PUT', `${PATH}/${after.body.data.id}`, {
      ...team,
      body: { data: { type: 'alert_retrigger_rules', attributes: { name, position, match_mode, timeout_minutes } } },
    });
    expect(back.status).toBe(200);
    const evaluated = await h.call('POST', `${PATH}/evaluate`, {
      ...team,
      body: { data: { type: 'alert_retrigger_rule_evaluations', attributes: { alert: {} } } },
    });
    expect(evaluated.body.data.attributes.alert_retrigger_rule_id).toBe(last.body.data.id);
  });

  describe('PUT and conditions', () => {
    it('keeps the conditions without conditions, replaces them with, and an unchanged condition keeps its id', async () => {
      const rule = await h.create('alert_retrigger_rules', {
        name: 'Replace',
        conditions: [
          { kind: 'urgency', operator: 'is_one_of', record_ids: [high] },
          { kind: 'service', operator: 'is_set' },
        ],
      });
      const [urgency, service] = rule.body.data.attributes.conditions;

      const renamed = await put(rule.body.data.id, { name: 'Replace 2' });
      expect(renamed.body.data.attributes.conditions).toEqual([urgency, service]);

      const replaced = await put(rule.body.data.id, {
        conditions: [
          { kind: 'service', operator: 'is_set' },
          { kind: 'group', operator: 'is_not_set' },
        ],
      });
      expect(replaced.status).toBe(200);
      const [kept, added] = replaced.body.data.attributes.conditions;
      expect(kept).toEqual(service);
      expect(added).toMatchObject({ kind: 'group', operator: 'is_not_set' });
      expect(added.id).not.toBe(urgency.id);
      expect(await h.db.knex('alert_retrigger_rule_conditions').where({ id: urgency.id })).toEqual([]);

      const sentBack = await put(rule.body.data.id, { conditions: [{ ...added, operator: 'is_set' }] });
      expect(sentBack.body.data.attributes.conditions).toEqual([{ ...added, operator: 'is_set' }]);

      const emptied = await put(rule.body.data.id, { conditions: [] });
      expect(emptied.body.data.attributes.conditions).toEqual([]);
    });

    it("refuses a condition id sent twice (it would silently drop a condition) at the repeat's id, and changes nothing", async () => {
      const rule = await h.create('alert_retrigger_rules', { name: 'Twice', conditions: [{ kind: 'service', operator: 'is_set' }] });
      const [only] = rule.body.data.attributes.conditions;
      const res = await put(rule.body.data.id, { conditions: [only, { ...only, operator: 'is_not_set' }, { ...only, kind: 'group' }] });
      expect(res.status).toBe(422);
      expect(res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toEqual([
        '/data/attributes/conditions/1/id',
        '/data/attributes/conditions/2/id',
      ]);
      expect(res.body.errors[0].detail).toMatch(/id of condition 0 too/);
      expect((await h.call('GET', `${PATH}/${rule.body.data.id}`)).body.data.attributes.conditions).toEqual([only]);
    });

    it('accepts only the listed attributes, wants data.type, and changes nothing on refusal', async () => {
      const rule = await h.create('alert_retrigger_rules', { name: 'Strict', timeout_minutes: 60 });
      const id = rule.body.data.id;
      const unknown = await put(id, { name: 'x', enabled: true });
      expect(unknown.status).toBe(422);
      expect(unknown.body.errors[0].source.pointer).toBe('/data/attributes/enabled');
      const noType = await h.call('PUT', `${PATH}/${id}`, { body: { data: { attributes: { name: 'y' } } } });
      expect(noType.status).toBe(422);
      expect(noType.body.errors[0].source.pointer).toBe('/data/type');
      expect((await put(id, { created_at: '2026-01-01T00:00:00Z' })).status).toBe(422);
      expect(
        (await h.call('PATCH', `${PATH}/${id}`, { body: { data: { type: 'alert_retrigger_rules', attributes: { name: 'z' } } } })).status,
      ).toBe(404);
      expect((await h.call('GET', `${PATH}/${id}`)).body.data.attributes).toMatchObject({ name: 'Strict', timeout_minutes: 60 });
    });
  });

  describe('validation: each violation a 422 pointing at the condition and field', () => {
    const refused = async (attributes: Record<string, unknown>, pointer: string, detail?: RegExp) => {
      const res = await h.create('alert_retrigger_rules', { name: 'Bad', ...attributes });
      expect(res.status).toBe(422);
      expect(res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toContain(pointer);
      if (detail) expect(res.body.errors.find((e: { source: { pointer: string } }) => e.source.pointer === pointer).detail).toMatch(detail);
    };

    it.each([
      ['name missing', { name: undefined }, '/data/attributes/name'],
      ['a timeout off the list', { timeout_minutes: 15 }, '/data/attributes/timeout_minutes'],
      ['a timeout as text', { timeout_minutes: '30' }, '/data/attributes/timeout_minutes'],
      ['an unknown match mode', { match_mode: 'all' }, '/data/attributes/match_mode'],
      [
        'a text operator on a native kind',
        { conditions: [{ kind: 'source', operator: 'contains', values: ['x'] }] },
        '/data/attributes/conditions/0/operator',
      ],
      [
        'record ids that are not UUIDs',
        { conditions: [{ kind: 'service', operator: 'is_one_of', record_ids: ['svc'] }] },
        '/data/attributes/conditions/0/record_ids/0',
      ],
      [
        'a JSON Path that does not parse',
        { conditions: [{ kind: 'payload', operator: 'is_set', property_field_name: '$[' }] },
        '/data/attributes/conditions/0/property_field_name',
      ],
      [
        'a pattern that does not compile',
        { conditions: [payloadRegex, { ...payloadRegex, values: ['ok', '(?<=x)'] }] },
        '/data/attributes/conditions/1/values/1',
      ],
      [
        'an unknown condition member',
        { conditions: [{ kind: 'urgency', operator: 'is_set', weight: 2 }] },
        '/data/attributes/conditions/0/weight',
      ],
    ])('%s', async (_name, attributes, pointer) => {
      await refused(attributes, pointer);
    });

    it("refuses urgency ids that are not the team's urgencies", async () => {
      const theirs = (await h.create('alert_urgencies', { name: 'Other team', description: 'd' }, { principal: { team_id: 2 } })).body.data
        .id;
      await refused(
        { conditions: [{ kind: 'urgency', operator: 'is_one_of', record_ids: [high, theirs] }] },
        '/data/attributes/conditions/0/record_ids/1',
        /No alert urgency "[0-9a-f-]+" exists in this team/,
      );
      await refused(
        { conditions: [{ kind: 'urgency', operator: 'is_one_of', record_ids: [randomUUID()] }] },
        '/data/attributes/conditions/0/record_ids/0',
      );
    });

    it('keeps an urgency a rule condition names from being deleted (422 in_use) until the rule lets go of it', async () => {
      const doomed = (await h.create('alert_urgencies', { name: 'Doomed', description: 'd' })).body.data.id;
      const holder = await h.create('alert_retrigger_rules', {
        name: 'Holder',
        conditions: [{ kind: 'urgency', operator: 'is_not_one_of', record_ids: [high, doomed] }],
      });
      const refusedDelete = await h.call('DELETE', `/v1/alert_urgencies/${doomed}`);
      expect(refusedDelete.status).toBe(422);
      expect(refusedDelete.body.errors[0]).toMatchObject({
        code: 'in_use',
        detail: expect.stringContaining(`alert_retrigger_rules "Holder" (${holder.body.data.id})`),
      });
      await put(holder.body.data.id, { conditions: [{ kind: 'urgency', operator: 'is_not_one_of', record_ids: [high] }] });
      expect((await h.call('DELETE', `/v1/alert_urgencies/${doomed}`)).status).toBe(200);
    });

    it("answers another team's rule, and unknown ids, with 404", async () => {
      const theirs = await h.create('alert_retrigger_rules', { name: 'Theirs' }, { principal: { team_id: 2 } });
      for (const id of [theirs.body.data.id, randomUUID(), 'not-a-uuid']) {
        expect((await h.call('GET', `${PATH}/${id}`)).status).toBe(404);
        expect((await put(id, { name: 'mine now' })).status).toBe(404);
        expect((await h.call('DELETE', `${PATH}/${id}`)).status).toBe(404);
      }
      expect((await h.call('GET', `${PATH}/${theirs.body.data.id}`, { principal: { team_id: 2 } })).body.data.attributes.name).toBe(
        'Theirs',
      );
    });
  });

  describe('POST /v1/alert_retrigger_rules/evaluate', () => {
    const evaluate = (alert: unknown, principal?: Record<string, unknown>) =>
      h.call('POST', `${PATH}/evaluate`, {
        body: { data: { type: 'alert_retrigger_rule_evaluations', attributes: { alert } } },
        ...(principal ? { principal } : {}),
      });

    it('names the first matching rule by position, its timeout, and why', async () => {
      const team = { team_id: 7 };
      const mk = async (attributes: Record<string, unknown>) =>
        (await h.create('alert_retrigger_rules', attributes, { principal: team })).body.data;
      const catchAll = await mk({ name: 'Everything else', position: 9, timeout_minutes: 1440 });
      const db = await mk({
        name: 'Databases',
        position: 2,
        timeout_minutes: 20,
        match_mode: 'match-all-rules',
        conditions: [payloadRegex, { kind: 'payload', operator: 'is_one_of', property_field_name: '$.priority', values: ['P1'] }],
      });
      const quiet = await mk({
        name: 'Quiet',
        position: 1,
        timeout_minutes: null,
        conditions: [{ kind: 'source', operator: 'is_one_of', values: ['manual'] }],
      });

      const dbAlert = await evaluate({ payload: { host: 'db-1', priority: 'P1' }, source: 'api' }, team);
      expect(dbAlert.status).toBe(200);
      expect(dbAlert.body.data).toMatchObject({
        type: 'alert_retrigger_rule_evaluations',
        attributes: { alert_retrigger_rule_id: db.id, timeout_minutes: 20, retrigger: true },
      });
      const rules = dbAlert.body.data.attributes.rules;
      expect(rules.map((r: { alert_retrigger_rule_id: string; matched: boolean }) => [r.alert_retrigger_rule_id, r.matched])).toEqual([
        [quiet.id, false],
        [db.id, true],
      ]);
      expect(rules[1].conditions).toEqual([
        expect.objectContaining({ id: db.attributes.conditions[0].id, kind: 'payload', operator: 'matches_regex', matched: true }),
        expect.objectContaining({
          id: db.attributes.conditions[1].id,
          matched: true,
          reason: 'payload $.priority has "P1"; is_one_of: matched',
        }),
      ]);

      const other = await evaluate({ payload: { host: 'web-1', priority: 'P1' } }, team);
      expect(other.body.data.attributes).toMatchObject({ alert_retrigger_rule_id: catchAll.id, timeout_minutes: 1440, retrigger: true });

      const manual = await evaluate({ source: 'manual', payload: { host: 'db-1', priority: 'P1' } }, team);
      expect(manual.body.data.attributes).toMatchObject({ alert_retrigger_rule_id: quiet.id, timeout_minutes: null, retrigger: false });
    });

    it('needs oc.alerts: read for lists and evaluate, write for changes', async () => {
      const reader = { scopes: ['oc.alerts:read'] };
      expect((await evaluate({}, reader)).status).toBe(200);
      expect((await h.call('GET', PATH, { principal: reader })).status).toBe(200);
      expect((await h.create('alert_retrigger_rules', { name: 'Reader' }, { principal: reader })).status).toBe(403);
      expect((await h.create('alert_retrigger_rules', { name: 'Writer' }, { principal: { scopes: ['oc.alerts:write'] } })).status).toBe(
        201,
      );
      expect((await evaluate({}, { scopes: ['oc.schedules:read'] })).status).toBe(403);
      expect((await evaluate({}, { scopes: ['ir.all'] })).status).toBe(403);
      expect((await evaluate({}, { scopes: ['oc.all'] })).status).toBe(200);
    });

    it('answers no rule when the team has none that matches', async () => {
      const res = await evaluate({ summary: 'x' }, { team_id: 8 });
      expect(res.body.data.attributes).toEqual({ alert_retrigger_rule_id: null, timeout_minutes: null, retrigger: false, rules: [] });
    });

    // Its time is checked once, at the engine (test/matching/rule-selector.test.ts): over HTTP a loaded CI machine adds its own noise.
    it('answers (a+)+$ on 50 000 a and a ! with RE2: no match', async () => {
      const team = { team_id: 9 };
      await h.create(
        'alert_retrigger_rules',
        { name: 'Evil', conditions: [{ kind: 'alert_field', operator: 'matches_regex', property_field_name: 'f', values: ['(a+)+$'] }] },
        { principal: team },
      );
      const res = await evaluate({ fields: { f: `${'a'.repeat(50_000)}!` } }, team);
      expect(res.status).toBe(200);
      expect(res.body.data.attributes.rules[0].matched).toBe(false);
    });

    it('takes no locks: it answers while a writer holds the rules and their conditions locked', async () => {
      await h.db.knex.transaction(async (tx) => {
        await tx.raw('select id from alert_retrigger_rules for update');
        await tx.raw('select id from alert_retrigger_rule_conditions for update');
        const answered = await Promise.race([
          evaluate({ summary: 'x' }).then((res) => res.status),
          new Promise((resolve) => {
            setTimeout(() => resolve('blocked'), 5_000);
          }),
        ]);
        expect(answered).toBe(200);
      });
    });

    it("refuses an alert too costly to judge against the team's rules with a 422, at once", async () => {
      const team = { team_id: 10 };
      await h.create(
        'alert_retrigger_rules',
        {
          name: 'Heavy',
          conditions: [{ kind: 'alert_field', operator: 'matches_regex', property_field_name: 'f', values: ['(?:a|aa){240}[yz]'] }],
        },
        { principal: team },
      );
      // Refused before the run, from its worst case (963 instructions × 60 000 characters), so at once.
      const res = await evaluate({ fields: { f: 'a'.repeat(60_000) } }, team);
      expect(res.status).toBe(422);
      expect(res.body.errors[0]).toMatchObject({
        code: 'too_costly',
        source: { pointer: '/data/attributes/alert' },
        detail: expect.stringContaining('too much to evaluate'),
      });
      expect((await evaluate({ fields: { f: `${'a'.repeat(300)}y` } }, team)).body.data.attributes.rules[0].matched).toBe(true);
    });

    it.each([
      [
        'an alert that is not an object',
        { data: { type: 'alert_retrigger_rule_evaluations', attributes: { alert: 'x' } } },
        '/data/attributes/alert',
      ],
      [
        'an unknown alert member',
        { data: { type: 'alert_retrigger_rule_evaluations', attributes: { alert: { colour: 'red' } } } },
        '/data/attributes/alert/colour',
      ],
      [
        'a bad urgency id',
        { data: { type: 'alert_retrigger_rule_evaluations', attributes: { alert: { urgency_id: 'high' } } } },
        '/data/attributes/alert/urgency_id',
      ],
      ['the wrong type', { data: { type: 'alert_retrigger_rules', attributes: { alert: {} } } }, '/data/type'],
    ])('refuses %s with a 422 at its pointer', async (_name, body, pointer) => {
      const res = await h.call('POST', `${PATH}/evaluate`, { body });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].source.pointer).toBe(pointer);
    });

    it('refuses a body that is not JSON with a 400', async () => {
      expect((await h.call('POST', `${PATH}/evaluate`, { body: '{"data":' })).status).toBe(400);
    });
  });
});
