import { createReferenceValidator } from './support/reference-validator.js';

// The validator on its own, without a running system: it must fail what the suite relies
// on it to fail, or a green conformance run would mean nothing.
const validator = createReferenceValidator();
const getEnvironment = { reference: 'getEnvironment', status: 200 } as const;
const now = new Date().toISOString();
const environment = (attributes: Record<string, unknown>) => ({
  data: { id: 'c1d2', type: 'environments', attributes: { name: 'Production', created_at: now, updated_at: now, ...attributes } },
});

describe('reference validator', () => {
  it('accepts a conforming body, with nulls where the reference says nullable and extra envelope members', () => {
    const body = {
      ...environment({ description: null, color: '#FF0000', chat_channels: [{ id: 'C1', name: 'ops' }] }),
      links: { self: '/x' },
    };
    expect(validator.validate(getEnvironment, body)).toEqual([]);
  });

  it('reports a missing required attribute, a wrong type and a bad timestamp, each readably', () => {
    const { data } = environment({ color: 7, updated_at: 'yesterday' });
    delete (data.attributes as Record<string, unknown>).name;
    expect(validator.validate(getEnvironment, { data })).toEqual(
      expect.arrayContaining([
        '/data/attributes: lacks required name',
        '/data/attributes/color: must be string,null (got 7)',
        '/data/attributes/updated_at: must match format "date-time" (got "yesterday")',
      ]),
    );
  });

  it('applies the renames: the reference name is refused, ours is checked against its schema', () => {
    expect(validator.validate(getEnvironment, environment({ slack_channels: [] }))).toEqual([
      '/data/attributes: has slack_channels, which the reference lacks and no deviation declares',
    ]);
    expect(validator.validate(getEnvironment, environment({ chat_aliases: [{ id: 'A1' }] }))).toEqual([
      '/data/attributes/chat_aliases/0: lacks required name',
    ]);
  });

  it('refuses attributes neither the reference nor a deviation declares, and a wrong resource type', () => {
    const body = environment({ team_id: 4 });
    body.data.type = 'environment';
    expect(validator.validate(getEnvironment, body)).toEqual([
      '/data/type: must be one of ["environments"] (got "environment")',
      '/data/attributes: has team_id, which the reference lacks and no deviation declares',
    ]);
  });

  it('checks error documents against the reference error list', () => {
    const notFound = { reference: 'getEnvironment', status: 404 } as const;
    expect(validator.validate(notFound, { errors: [{ title: 'Not Found', status: '404', code: null, detail: 'gone' }] })).toEqual([]);
    expect(validator.validate(notFound, { errors: [{ title: 'Not Found', status: 404 }] })).toEqual([
      '/errors/0/status: must be string (got 404)',
    ]);
  });

  it("checks the contract's document shapes for operations the reference lacks", () => {
    const shape = { spec: 'collection', type: 'webhooks_event_types', cite: 'docs/api-contract.md §2 (Documents)' } as const;
    expect(
      validator.validate(shape, { data: [{ id: 'a.b', type: 'webhooks_event_types', attributes: {} }], meta: { total_count: 1 } }),
    ).toEqual([]);
    expect(validator.validate(shape, { data: [{ id: 'a.b', type: 'other' }] })).toEqual(
      expect.arrayContaining(['/data/0: lacks required attributes']),
    );
  });

  it('checks a named component where the operation declares no body', () => {
    const target = { component: 'environment_response', cite: 'test' };
    expect(validator.validate(target, environment({}))).toEqual([]);
    expect(validator.validate(target, { data: {} })).toEqual(expect.arrayContaining(['/data: lacks required id']));
    expect(() => validator.validate({ component: 'nothing_response', cite: 'test' }, {})).toThrow(
      'the reference has no component schema nothing_response',
    );
  });

  it('names an operation or status the reference does not declare', () => {
    expect(() => validator.validate({ reference: 'getEnvironment', status: 201 }, {})).toThrow(
      /declares no 201 response \(it declares 200, 404\)/,
    );
    expect(() => validator.validate({ reference: 'getNothing', status: 200 }, {})).toThrow(/no operation getNothing/);
  });

  it('refuses a deviation about a property the reference lacks', () => {
    expect(() =>
      createReferenceValidator({ deviations: { environment: [{ because: 'test', renames: { slack_channel: 'chat_channel' } }] } }),
    ).toThrow('deviation for environment: the reference has no property slack_channel');
  });
});
