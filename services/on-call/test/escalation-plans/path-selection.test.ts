import { selectPath, type PathRecord } from '../../src/domain/escalation-plans/path-selection.js';

const URGENT = '11111111-1111-4111-8111-111111111111';
const LOW = '22222222-2222-4222-8222-222222222222';
const SERVICE = '33333333-3333-4333-8333-333333333333';

const path = (over: Partial<PathRecord> & { id: string }): PathRecord => ({
  name: over.id,
  is_default: false,
  path_type: 'escalation',
  position: 1,
  match_mode: 'match-all-rules',
  rules: [],
  time_restriction_time_zone: null,
  time_restrictions: [],
  ...over,
});

const alert = (over: Record<string, unknown> = {}) => ({
  id: 'a1',
  alert_urgency_id: URGENT,
  service_ids: [SERVICE],
  data: { labels: { severity: 'critical', host: 'db-1' }, region: 'eu' },
  ...over,
});

const monday10utc = new Date('2026-11-23T10:00:00Z');
const fallback = path({ id: 'default', is_default: true, position: 0 });

describe('selectPath', () => {
  it('takes the first non-default path by position whose rules match, else the default path', () => {
    const urgent = path({ id: 'urgent', position: 2, rules: [{ rule_type: 'alert_urgency', urgency_ids: [URGENT] }] });
    const low = path({ id: 'low', position: 1, rules: [{ rule_type: 'alert_urgency', urgency_ids: [LOW] }] });
    const chosen = selectPath([fallback, urgent, low], alert(), null, monday10utc)!;
    expect(chosen.path.id).toBe('urgent');
    expect(chosen.reason).toMatch(/^path "urgent" \(position 2\): match-all-rules: alert_urgency/);
    const none = selectPath([fallback, urgent, low], alert({ alert_urgency_id: null }), null, monday10utc)!;
    expect(none.path.id).toBe('default');
    expect(none.reason).toMatch(/^default: no other path matched \("low": rules not matched/);
    expect(selectPath([urgent], alert({ alert_urgency_id: null }), null, monday10utc)).toBeNull();
  });

  it('matches all rules or any rule as the path says', () => {
    const rules = [
      { rule_type: 'service', service_ids: [SERVICE] },
      { rule_type: 'json_path', json_path: '$.region', operator: 'is', value: 'us' },
    ];
    expect(selectPath([fallback, path({ id: 'p', rules })], alert(), null, monday10utc)!.path.id).toBe('default');
    expect(selectPath([fallback, path({ id: 'p', rules, match_mode: 'match-any-rule' })], alert(), null, monday10utc)!.path.id).toBe('p');
  });

  it.each([
    [{ json_path: '$.labels.severity', operator: 'is', value: 'critical' }, true],
    [{ json_path: '$.labels.severity', operator: 'is_not', value: 'critical' }, false],
    [{ json_path: '$.labels.severity', operator: 'is_one_of', values: ['warning', 'critical'] }, true],
    [{ json_path: '$.labels.severity', operator: 'is_not_one_of', values: ['warning'] }, true],
    [{ json_path: '$.labels.host', operator: 'starts_with', value: 'db-' }, true],
    [{ json_path: '$.labels.host', operator: 'does_not_start_with', value: 'db-' }, false],
    [{ json_path: '$.labels.host', operator: 'contains', value: 'b-1' }, true],
    [{ json_path: '$.labels.host', operator: 'matches', value: '^db-\\d+$' }, true],
    [{ json_path: '$.labels.host', operator: 'does_not_match', value: '^web' }, true],
    [{ json_path: '$.labels', operator: 'contains_key', value: 'host' }, true],
    [{ json_path: '$.labels', operator: 'does_not_contain_key', value: 'host' }, false],
    [{ json_path: '$.labels.team', operator: 'is_set' }, false],
    [{ json_path: '$.labels.team', operator: 'is_not_set' }, true],
  ])('json_path %j over the payload: %s', (rule, matched) => {
    const p = path({ id: 'p', rules: [{ rule_type: 'json_path', ...rule }] });
    expect(selectPath([fallback, p], alert(), null, monday10utc)!.path.id).toBe(matched ? 'p' : 'default');
  });

  it('judges working hours by the policy business hours, and time restrictions in the path zone', () => {
    const hours = { time_zone: 'UTC', days: ['M'], start_time: '09:00', end_time: '17:00' };
    const office = path({ id: 'office', rules: [{ rule_type: 'working_hour', within_working_hour: true }] });
    const after = path({ id: 'after', position: 2, rules: [{ rule_type: 'working_hour', within_working_hour: false }] });
    expect(selectPath([fallback, office, after], alert(), hours, monday10utc)!.path.id).toBe('office');
    expect(selectPath([fallback, office, after], alert(), hours, new Date('2026-11-23T18:00:00Z'))!.path.id).toBe('after');
    const mornings = path({
      id: 'mornings',
      time_restriction_time_zone: 'Tokyo',
      time_restrictions: [{ start_day: 'monday', start_time: '08:00', end_day: 'monday', end_time: '12:00' }],
    });
    // 10:00 UTC is 19:00 in Tokyo.
    const chosen = selectPath([fallback, mornings], alert(), null, monday10utc)!;
    expect(chosen.path.id).toBe('default');
    expect(chosen.reason).toContain('"mornings": monday 19:00 Asia/Tokyo is outside its time restrictions');
    expect(selectPath([fallback, mornings], alert(), null, new Date('2026-11-23T00:30:00Z'))!.path.id).toBe('mornings');
  });

  it('judges the alert source by alias or id, and related incidents as never set', () => {
    const rule = (over: Record<string, unknown>) => path({ id: 'p', rules: [{ rule_type: 'source', ...over }] });
    expect(
      selectPath([fallback, rule({ operator: 'is', values: ['datadog'] })], alert({ source: 'datadog' }), null, monday10utc)!.path.id,
    ).toBe('p');
    expect(
      selectPath([fallback, rule({ operator: 'is_not_one_of', values: ['datadog'] })], alert({ source: 'datadog' }), null, monday10utc)!
        .path.id,
    ).toBe('default');
    expect(
      selectPath(
        [fallback, rule({ operator: 'is_one_of', values: [SERVICE] })],
        alert({ source: 'x', alert_source_id: SERVICE }),
        null,
        monday10utc,
      )!.path.id,
    ).toBe('p');
    const related = (operator: string) => path({ id: 'p', rules: [{ rule_type: 'related_incidents', operator }] });
    expect(selectPath([fallback, related('is_not_set')], alert(), null, monday10utc)!.path.id).toBe('p');
    expect(selectPath([fallback, related('is_set')], alert(), null, monday10utc)!.path.id).toBe('default');
  });

  it('never chooses a deferral path or a rule it cannot judge', () => {
    const deferral = path({ id: 'deferral', path_type: 'deferral' });
    const odd = path({ id: 'odd', rules: [{ rule_type: 'incident_severity', operator: 'is_set' }] });
    expect(selectPath([fallback, deferral, odd], alert(), null, monday10utc)!.path.id).toBe('default');
  });
});
