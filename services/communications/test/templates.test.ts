import { startCommunications, type CallOptions, type CommunicationsHarness } from './support/communications-harness.js';

let h: CommunicationsHarness;
const call = (method: string, path: string, options?: CallOptions) => h.call(method, path, options);
const create = (kind: string, attributes: Record<string, unknown>, principal?: Record<string, unknown>) =>
  call('POST', `/v1/communications/${kind}`, { body: { data: { type: `communications_${kind}`, attributes } }, principal });
const patch = (id: string, attributes: Record<string, unknown>) =>
  call('PATCH', `/v1/communications/templates/${id}`, { body: { data: { id, type: 'communications_templates', attributes } } });
const STAGES = 'communication_template_stages_attributes';

let typeId: string;
let investigating: string;
let resolved: string;

beforeAll(async () => {
  h = await startCommunications({ eventPattern: 'communications_template.*' });
  typeId = (await create('types', { name: 'Status update', color: '#ff0000' })).body.data.id;
  investigating = (await create('stages', { name: 'Investigating' })).body.data.id;
  resolved = (await create('stages', { name: 'Resolved' })).body.data.id;
});
afterAll(async () => h?.close());

const snapshot = () => h.db.knex('communications_template_stages').orderBy('id').select('*');

describe('communications templates', () => {
  it('creates with stage contents, answers the documented shape, gets, lists by type and deletes, each write announced', async () => {
    const created = await create('templates', {
      name: 'Outage',
      description: 'Customer-facing',
      communication_type_id: typeId,
      [STAGES]: [
        {
          communication_stage_id: investigating,
          email_subject: 'Investigating {{ incident.title }}',
          chat_content: 'Looking',
          sms_content: 'We are on it',
        },
      ],
    });
    expect(created.status).toBe(201);
    const { id, attributes } = created.body.data;
    expect(created.body.data.type).toBe('communications_templates');
    expect(attributes).toMatchObject({
      name: 'Outage',
      slug: 'outage',
      description: 'Customer-facing',
      position: 1,
      communication_type_id: typeId,
      communication_type: { id: typeId, name: 'Status update' },
    });
    expect(attributes.communication_template_stages).toEqual([
      {
        data: {
          id: expect.any(String),
          type: 'communications_template_stages',
          attributes: {
            email_body: null,
            email_subject: 'Investigating {{ incident.title }}',
            chat_content: 'Looking',
            sms_content: 'We are on it',
            created_at: expect.any(String),
            updated_at: expect.any(String),
            communication_stage: { id: investigating, name: 'Investigating' },
            communication_template: { id, name: 'Outage' },
          },
        },
      },
    ]);
    expect(attributes).not.toHaveProperty('slack_content');

    expect((await call('GET', `/v1/communications/templates/outage`)).body.data.attributes.communication_template_stages).toHaveLength(1);
    const other = (await create('types', { name: 'Internal', color: null })).body.data.id;
    await create('templates', { name: 'Internal note', communication_type_id: other });
    const byType = await call('GET', `/v1/communications/templates?filter[communication_type_id]=${typeId}`);
    expect(byType.body.data.map((t: { id: string }) => t.id)).toEqual([id]);
    expect((await call('GET', '/v1/communications/templates?filter[communication_type_id]=nope')).status).toBe(400);

    // A renamed type or stage shows its new name at once.
    await call('PATCH', `/v1/communications/stages/${investigating}`, {
      body: { data: { type: 'communications_stages', attributes: { name: 'Investigating!' } } },
    });
    const again = await call('GET', `/v1/communications/templates/${id}`);
    expect(again.body.data.attributes.communication_template_stages[0].data.attributes.communication_stage.name).toBe('Investigating!');
    await call('PATCH', `/v1/communications/stages/${investigating}`, {
      body: { data: { type: 'communications_stages', attributes: { name: 'Investigating' } } },
    });

    const deleted = await call('DELETE', `/v1/communications/templates/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.attributes.communication_template_stages).toHaveLength(1);
    expect((await call('GET', `/v1/communications/templates/${id}`)).status).toBe(404);
    expect(await h.db.knex('communications_template_stages').where({ communications_template_id: id })).toEqual([]);
    await h.events!.waitFor((es) => es.filter((e) => (e.body.data as { id: string }).id === id).length === 2);
    expect(h.events!.events.filter((e) => (e.body.data as { id: string }).id === id).map((e) => e.routingKey)).toEqual([
      'communications_template.created',
      'communications_template.deleted',
    ]);
  });

  it('updates: an entry with an id changes that stage, one with communication_stage_id adds one, _destroy removes', async () => {
    const t = (
      await create('templates', {
        name: 'Update me',
        communication_type_id: typeId,
        [STAGES]: [{ communication_stage_id: investigating, sms_content: 'a' }],
      })
    ).body.data;
    const stageRowId = t.attributes.communication_template_stages[0].data.id;
    const updated = await patch(t.id, {
      name: 'Updated',
      [STAGES]: [
        { id: stageRowId, sms_content: 'b' },
        { communication_stage_id: resolved, email_body: 'Done' },
      ],
    });
    expect(updated.status).toBe(200);
    const stages = updated.body.data.attributes.communication_template_stages.map((s: any) => s.data);
    expect(
      stages.map((s: any) => [
        s.id === stageRowId,
        s.attributes.communication_stage.name,
        s.attributes.sms_content,
        s.attributes.email_body,
        s.attributes.communication_template.name,
      ]),
    ).toEqual([
      [true, 'Investigating', 'b', null, 'Updated'],
      [false, 'Resolved', null, 'Done', 'Updated'],
    ]);
    const removed = await patch(t.id, { [STAGES]: [{ id: stageRowId, _destroy: true }] });
    expect(removed.status).toBe(200);
    expect(removed.body.data.attributes.communication_template_stages.map((s: any) => s.data.attributes.communication_stage.name)).toEqual([
      'Resolved',
    ]);
    await h.events!.waitFor(
      (es) =>
        es.filter((e) => e.routingKey === 'communications_template.updated' && (e.body.data as { id: string }).id === t.id).length === 2,
    );
  });

  it('a PATCH mixing a valid stage change with an invalid one changes nothing (422 naming the entry)', async () => {
    const t = (
      await create('templates', {
        name: 'Atomic',
        communication_type_id: typeId,
        [STAGES]: [{ communication_stage_id: investigating, sms_content: 'keep' }],
      })
    ).body.data;
    const stageRowId = t.attributes.communication_template_stages[0].data.id;
    const foreign = (
      await create('templates', { name: 'Foreign', communication_type_id: typeId, [STAGES]: [{ communication_stage_id: investigating }] })
    ).body.data;
    const foreignRow = foreign.attributes.communication_template_stages[0].data.id;
    const otherTeamStage = (await create('stages', { name: 'Theirs' }, { team_id: 2 })).body.data.id;
    const before = await snapshot();
    const cases: [unknown, string][] = [
      [{ id: foreignRow, sms_content: 'x' }, `/data/attributes/${STAGES}/1/id`],
      [{ id: '00000000-0000-4000-8000-000000000000' }, `/data/attributes/${STAGES}/1/id`],
      [{ communication_stage_id: otherTeamStage }, `/data/attributes/${STAGES}/1/communication_stage_id`],
      [{ communication_stage_id: investigating }, `/data/attributes/${STAGES}/1/communication_stage_id`],
      [{ communication_stage_id: resolved, chat_content: '{% if %}' }, `/data/attributes/${STAGES}/1/chat_content`],
      [{ communication_stage_id: resolved, id: stageRowId }, `/data/attributes/${STAGES}/1`],
      [{ communication_stage_id: resolved, slack_content: 'x' }, `/data/attributes/${STAGES}/1`],
    ];
    for (const [bad, pointer] of cases) {
      const res = await patch(t.id, { name: 'Changed', [STAGES]: [{ id: stageRowId, sms_content: 'changed' }, bad] });
      expect([res.status, res.body.errors.map((e: any) => e.source.pointer)]).toEqual([422, [expect.stringContaining(pointer)]]);
    }
    expect(await snapshot()).toEqual(before);
    expect((await call('GET', `/v1/communications/templates/${t.id}`)).body.data.attributes.name).toBe('Atomic');
  });

  it("takes the reference's id: null as no id, and refuses an entry named twice", async () => {
    const t = (
      await create('templates', {
        name: 'Entries',
        communication_type_id: typeId,
        [STAGES]: [{ communication_stage_id: investigating, sms_content: 'a' }],
      })
    ).body.data;
    const rowId = t.attributes.communication_template_stages[0].data.id;
    const added = await patch(t.id, { [STAGES]: [{ id: null, communication_stage_id: resolved, sms_content: 'r' }] });
    expect(added.status).toBe(200);
    expect(added.body.data.attributes.communication_template_stages.map((s: any) => s.data.attributes.sms_content)).toEqual(['a', 'r']);
    expect((await patch(t.id, { [STAGES]: [{ id: null }] })).status).toBe(422);
    const before = await snapshot();
    const twice = await patch(t.id, {
      [STAGES]: [
        { id: rowId, _destroy: true },
        { id: rowId, sms_content: 'changed' },
      ],
    });
    expect([twice.status, twice.body.errors]).toEqual([
      422,
      [expect.objectContaining({ code: 'duplicate_entry', source: { pointer: `/data/attributes/${STAGES}/1/id` } })],
    ]);
    expect(await snapshot()).toEqual(before);
  });

  it("bounds a template's content as a whole, counting the entries it keeps, at the entry that crosses it", async () => {
    const stages = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => (await create('stages', { name: `Big ${i}` })).body.data.id as string),
    );
    const full = (id: string) => ({ communication_stage_id: id, email_body: 'x'.repeat(100_000) });
    const made = await create('templates', { name: 'Big', communication_type_id: typeId, [STAGES]: stages.slice(0, 9).map(full) });
    expect(made.status).toBe(201);
    // 900,000 kept + 100,000 = 1,000,000: fine; one character more is refused at that entry.
    const grown = await patch(made.body.data.id, { [STAGES]: [{ ...full(stages[9]) }] });
    expect(grown.status).toBe(200);
    const before = await snapshot();
    const over = await patch(made.body.data.id, {
      [STAGES]: [
        { communication_stage_id: stages[10], sms_content: 'ok' },
        { communication_stage_id: stages[11], sms_content: 'y' },
      ],
    });
    expect([over.status, over.body.errors]).toEqual([
      422,
      [expect.objectContaining({ code: 'template_too_large', source: { pointer: `/data/attributes/${STAGES}/0` } })],
    ]);
    // Shrinking one entry makes room for another in the same request.
    const firstRow = grown.body.data.attributes.communication_template_stages[0].data.id;
    expect(
      (
        await patch(made.body.data.id, {
          [STAGES]: [
            { id: firstRow, email_body: 'short' },
            { communication_stage_id: stages[10], sms_content: 'ok' },
          ],
        })
      ).status,
    ).toBe(200);
    expect((await snapshot()).length).toBe(before.length + 1);
    // Each field has its own bound too (SMS: 4,000 characters of Liquid).
    expect((await patch(made.body.data.id, { [STAGES]: [{ id: firstRow, sms_content: 'x'.repeat(4_001) }] })).status).toBe(422);
    // A page of templates holds at most 20.
    expect((await call('GET', '/v1/communications/templates?page[size]=21')).status).toBe(400);
  });

  it('refuses Liquid that does not parse at write time, naming the stage and field', async () => {
    const res = await create('templates', {
      name: 'Broken',
      communication_type_id: typeId,
      [STAGES]: [
        { communication_stage_id: investigating, email_body: 'ok {{ incident.title }}' },
        { communication_stage_id: resolved, sms_content: 'Bad {{ incident.title | no_such_filter }}' },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        code: 'invalid_liquid',
        source: { pointer: `/data/attributes/${STAGES}/1/sms_content` },
        detail: expect.stringMatching(/Stage "Resolved", sms_content/),
      }),
    ]);
    for (const bad of ['{{ x', '{% for x in y %}', '{% include "/etc/passwd" %}', '{% render "x" %}', '{% layout "x" %}']) {
      const r = await create('templates', {
        name: 'Broken',
        communication_type_id: typeId,
        [STAGES]: [{ communication_stage_id: investigating, email_subject: bad }],
      });
      expect([bad, r.status]).toEqual([bad, 422]);
    }
    expect(await h.db.knex('communications_templates').where({ name: 'Broken' })).toEqual([]);
  });

  it('needs name and an existing communication_type_id of the team; other teams get 404', async () => {
    expect((await create('templates', { name: 'No type' })).status).toBe(422);
    const missing = await create('templates', { name: 'Unknown type', communication_type_id: '00000000-0000-4000-8000-000000000000' });
    expect([missing.status, missing.body.errors[0].source.pointer]).toEqual([422, '/data/attributes/communication_type_id']);
    const theirType = (await create('types', { name: 'Theirs', color: null }, { team_id: 2 })).body.data.id;
    expect((await create('templates', { name: 'Their type', communication_type_id: theirType })).status).toBe(422);
    expect((await create('templates', { name: 'x', communication_type_id: 'not-a-uuid' })).status).toBe(422);
    const mine = (await create('templates', { name: 'Mine only', communication_type_id: typeId })).body.data.id;
    expect((await call('GET', `/v1/communications/templates/${mine}`, { principal: { team_id: 2 } })).status).toBe(404);
    expect((await call('DELETE', `/v1/communications/templates/${mine}`, { principal: { team_id: 2 } })).status).toBe(404);
    expect(
      (
        await call('POST', `/v1/communications/templates/${mine}/preview`, {
          principal: { team_id: 2 },
          body: { data: { type: 'communications_template_previews', attributes: {} } },
        })
      ).status,
    ).toBe(404);
  });

  it('lets a record-scoped key name only the types and stages it lists', async () => {
    const t = (await create('templates', { name: 'Scoped', communication_type_id: typeId })).body.data.id;
    const scoped = { record_ids: [t, investigating] };
    const patchAs = (attributes: Record<string, unknown>) =>
      call('PATCH', `/v1/communications/templates/${t}`, {
        principal: scoped,
        body: { data: { type: 'communications_templates', attributes } },
      });
    expect((await patchAs({ [STAGES]: [{ communication_stage_id: resolved }] })).status).toBe(422);
    // Its template's own type is no new reference: re-sending it is fine (what a client that PATCHes back what it read does).
    expect((await patchAs({ name: 'Scoped', communication_type_id: typeId })).status).toBe(200);
    const unlisted = (await create('types', { name: 'Unlisted', color: null })).body.data.id;
    expect((await patchAs({ communication_type_id: unlisted })).status).toBe(422);
    expect((await patchAs({ [STAGES]: [{ communication_stage_id: investigating, sms_content: 'ok' }] })).status).toBe(200);
  });

  it('never leaves a template without its type or stage when creates race deletes (no 5xx)', async () => {
    for (let round = 0; round < 5; round++) {
      const type = (await create('types', { name: `Racing ${round}`, color: null })).body.data.id;
      const stage = (await create('stages', { name: `Racing stage ${round}` })).body.data.id;
      const results = await Promise.all([
        ...Array.from({ length: 4 }, (_, i) =>
          create('templates', { name: `Race ${round}-${i}`, communication_type_id: type, [STAGES]: [{ communication_stage_id: stage }] }),
        ),
        call('DELETE', `/v1/communications/types/${type}`),
        call('DELETE', `/v1/communications/stages/${stage}`),
      ]);
      expect(results.map((r) => r.status).filter((s) => ![200, 201, 422].includes(s))).toEqual([]);
      const orphans = await h.db
        .knex('communications_templates as t')
        .leftJoin('communications_types as c', 'c.id', 't.communication_type_id')
        .whereNull('c.id')
        .count({ n: '*' });
      expect(Number(orphans[0].n)).toBe(0);
      const made = results.slice(0, 4).filter((r) => r.status === 201).length;
      // A delete succeeded only if no template was made with what it deleted.
      if (results[4].status === 200) expect(made).toBe(0);
      if (results[5].status === 200) expect(made).toBe(0);
    }
  });

  it('refuses to delete a type or stage in use with 422 naming the templates', async () => {
    const type = (await create('types', { name: 'Used', color: null })).body.data.id;
    const stage = (await create('stages', { name: 'Used stage' })).body.data.id;
    const t = (await create('templates', { name: 'Holder', communication_type_id: type, [STAGES]: [{ communication_stage_id: stage }] }))
      .body.data;
    for (const path of [`/v1/communications/types/${type}`, `/v1/communications/stages/${stage}`]) {
      const res = await call('DELETE', path);
      expect(res.status).toBe(422);
      expect(res.body.errors[0]).toMatchObject({
        code: 'in_use',
        detail: expect.stringContaining(`"Holder" (${t.id})`),
        meta: { communications_template_ids: [t.id] },
      });
    }
    expect((await call('DELETE', `/v1/communications/templates/${t.id}`)).status).toBe(200);
    expect((await call('DELETE', `/v1/communications/stages/${stage}`)).status).toBe(200);
    expect((await call('DELETE', `/v1/communications/types/${type}`)).status).toBe(200);
  });
});
