import { renderTemplate, templateIssue } from '../../src/domain/alerts-in/alert-template.js';
import { deduplicationKey } from '../../src/domain/alerts-in/deduplication-key.js';
import { UnmappablePayload } from '../../src/domain/alerts-in/payload-fields.js';
import { mapPayload } from '../../src/domain/alerts-in/payload-mapping.js';

const generic = (more: Record<string, unknown> = {}) => ({ id: 's1', source_type: 'generic_webhook', alert_urgency_id: null, ...more });

describe('alert templates', () => {
  it('renders a JSON Path, placeholders, numbers and objects, and nothing as null', () => {
    const payload = { host: 'db-1', n: 3, tags: { a: 1 }, empty: '  ' };
    expect(renderTemplate('$.host', payload)).toBe('db-1');
    expect(renderTemplate('{{ $.host }} has {{$.n}} errors', payload)).toBe('db-1 has 3 errors');
    expect(renderTemplate('$.tags', payload)).toBe('{"a":1}');
    expect(renderTemplate('{{ $.missing }}', payload)).toBeNull();
    expect(renderTemplate('$.empty', payload)).toBeNull();
    expect(renderTemplate('plain text', payload)).toBe('plain text');
  });

  it('refuses paths that do not parse, too many placeholders and long templates', () => {
    expect(templateIssue('$.a.b')).toBeNull();
    expect(templateIssue('$[')).toMatch(/JSON Path/);
    expect(templateIssue('{{ $.( }} down')).toMatch(/placeholder/);
    expect(templateIssue('{{ $.a }}'.repeat(11))).toMatch(/more than 10/);
    expect(templateIssue('x'.repeat(1025))).toMatch(/longer/);
  });
});

describe('deduplication keys', () => {
  it('takes the value at the path, narrowed by the first group of the regexp, else its match', () => {
    expect(deduplicationKey({ id: 'job-42 nightly' }, { path: '$.id', regexp: null })).toBe('job-42 nightly');
    expect(deduplicationKey({ id: 'job-42 nightly' }, { path: '$.id', regexp: 'job-(\\d+)' })).toBe('42');
    expect(deduplicationKey({ id: 'job-42 nightly' }, { path: '$.id', regexp: 'job-\\d+' })).toBe('job-42');
    expect(deduplicationKey({ id: 'nothing' }, { path: '$.id', regexp: 'job-(\\d+)' })).toBeNull();
    expect(deduplicationKey({}, { path: '$.id', regexp: null })).toBeNull();
    expect(deduplicationKey({ id: 'k'.repeat(600) }, { path: '$.id', regexp: null })).toHaveLength(512);
  });
});

describe('payload mapping', () => {
  it('maps a generic payload by defaults, template and field mappings in that order of weight', () => {
    const [intent] = mapPayload(generic(), { title: 'fallback title', url: 'https://x' });
    expect(intent).toMatchObject({ kind: 'alert', alert: { summary: 'fallback title', external_url: 'https://x', status: 'triggered' } });
    const source = generic({
      alert_template_attributes: { title: '$.a' },
      sourceable_attributes: { field_mappings_attributes: [{ field: 'alert_title', json_path: '$.b' }] },
    });
    expect(mapPayload(source, { a: 'from template', b: 'from mapping' })[0]).toMatchObject({ alert: { summary: 'from mapping' } });
    expect(mapPayload(source, { a: 'from template' })[0]).toMatchObject({ alert: { summary: 'from template' } });
  });

  it('refuses what maps to no alert', () => {
    expect(() => mapPayload(generic(), { nothing: true })).toThrow(UnmappablePayload);
    expect(() => mapPayload(generic(), 'text')).toThrow(UnmappablePayload);
    const autoResolve = generic({
      sourceable_attributes: { auto_resolve: true, resolve_state: 'ok', field_mappings_attributes: [{ field: 'state', json_path: '$.s' }] },
    });
    expect(() => mapPayload(autoResolve, { s: 'ok' })).toThrow(/no deduplication key or external_id/);
  });

  it("charges a payload's template and key paths to one budget, refusing one they would take seconds over", () => {
    const placeholders = Array.from({ length: 10 }, (_, i) => `{{ $..[?@.a == ${i} && @.b == 1 && @.c == 2] }}`).join(' ');
    const source = generic({
      alert_template_attributes: { title: placeholders, description: placeholders, external_url: placeholders },
      deduplicate_alerts_by_key: true,
      deduplication_key_path: '$..[?@.a == 1 && @.b == 1]',
    });
    // Uncharged, these thirty-one filter paths took 19 s over this 480 KB payload.
    const large = { summary: 'x', nodes: Array.from({ length: 60_000 }, (_, i) => ({ a: i % 3 })) };
    const started = Date.now();
    expect(() => mapPayload(source, large)).toThrow(/too much for the source's templates/);
    // The budget counts work, not time: 5 s leaves a loaded machine room and still fails the uncharged 19 s.
    expect(Date.now() - started).toBeLessThan(5000);
    // The same paths over a small payload are well within it.
    expect(mapPayload(source, { nodes: [{ a: 1, b: 1, c: 2 }] })[0]).toMatchObject({
      kind: 'alert',
      alert: { summary: expect.any(String) },
    });
  });

  it('maps a thousand-alert Alertmanager notification through templates of names and indices within the budget', () => {
    const title = Array.from({ length: 10 }, (_, i) => `{{ $.labels.l${i} }}`).join(' ');
    const source = {
      id: 's3',
      source_type: 'alertmanager',
      alert_urgency_id: null,
      alert_template_attributes: { title, description: title, external_url: '$.annotations.runbook' },
    };
    const alerts = Array.from({ length: 1000 }, (_, i) => ({
      status: 'firing',
      fingerprint: `f${i}`,
      labels: { l0: 'disk', l9: `db-${i}` },
    }));
    const intents = mapPayload(source, { alerts });
    expect(intents).toHaveLength(1000);
    expect(intents[999]).toMatchObject({ kind: 'alert', alert: { summary: expect.stringMatching(/^disk +db-999$/) } });
  });

  it('keys an Alertmanager alert without a fingerprint by its sorted labels', () => {
    const source = { id: 's2', source_type: 'alertmanager', alert_urgency_id: null };
    const entry = (labels: Record<string, string>) => ({ alerts: [{ status: 'firing', labels }] });
    const [a] = mapPayload(source, entry({ alertname: 'Down', instance: 'x' }));
    const [b] = mapPayload(source, entry({ instance: 'x', alertname: 'Down' }));
    const [c] = mapPayload(source, entry({ alertname: 'Down', instance: 'y' }));
    const key = (i: typeof a) => (i.kind === 'alert' ? i.alert.deduplication_key : i.key);
    expect(key(a)).toMatch(/^[0-9a-f]{16}$/);
    expect(key(a)).toBe(key(b));
    expect(key(a)).not.toBe(key(c));
    expect(() => mapPayload(source, { alerts: Array(1001).fill({ status: 'firing', labels: { alertname: 'x' } }) })).toThrow(
      /more than 1000/,
    );
  });
});
