import type { AlertInput, Condition, MatchContext } from '../../src/domain/matching/index.js';
import {
  BARE,
  F_BLANK,
  F_ENV,
  FULL,
  G_OPS,
  G_X,
  MANUAL,
  SRC_DD,
  SRC_OTHER,
  SVC_A,
  SVC_B,
  SVC_X,
  U_HIGH,
  U_LOW,
} from './matching-fixtures.js';

/** One evaluate case: a condition, an alert, and whether the condition holds. */
export interface EvaluateCase {
  name: string;
  condition: Condition;
  alert: AlertInput;
  expected: boolean;
  context?: MatchContext;
}

type Row = [name: string, condition: Omit<Condition, 'kind' | 'operator'>, alert: AlertInput, expected: boolean, context?: MatchContext];

/** Rows for one kind × operator pair. */
function pair(kind: Condition['kind'], operator: Condition['operator'], rows: Row[]): EvaluateCase[] {
  return rows.map(([name, rest, alert, expected, context]) => ({
    name: `${kind} ${operator}: ${name}`,
    condition: { kind, operator, ...rest },
    alert,
    expected,
    ...(context ? { context } : {}),
  }));
}

const path = (property_field_name: string, values?: string[]) => ({ property_field_name, ...(values ? { values } : {}) });
const field = (values?: string[], name = F_ENV) => path(name, values);

export const EVALUATE_CASES: EvaluateCase[] = [
  ...pair('urgency', 'is_one_of', [
    ['the alert urgency listed', { record_ids: [U_LOW, U_HIGH] }, FULL, true],
    ['another urgency listed', { record_ids: [U_LOW] }, FULL, false],
    ['ids compare case-insensitively', { record_ids: [U_HIGH.toUpperCase()] }, FULL, true],
    ['an alert without urgency', { record_ids: [U_HIGH] }, BARE, false],
  ]),
  ...pair('urgency', 'is_not_one_of', [
    ['another urgency listed', { record_ids: [U_LOW] }, FULL, true],
    ['the alert urgency listed', { record_ids: [U_HIGH] }, FULL, false],
    ['an alert without urgency', { record_ids: [U_HIGH] }, BARE, true],
  ]),
  ...pair('urgency', 'is_set', [
    ['urgency present', {}, FULL, true],
    ['urgency missing', {}, BARE, false],
    ['urgency null', {}, { urgency_id: null }, false],
  ]),
  ...pair('urgency', 'is_not_set', [
    ['urgency present', {}, FULL, false],
    ['urgency missing', {}, BARE, true],
  ]),
  ...pair('urgency', 'is_empty', [
    ['urgency present', {}, FULL, false],
    ['urgency missing', {}, BARE, true],
  ]),
  ...pair('urgency', 'matches_existing_alert', [
    ['an open alert of the same urgency', {}, FULL, true, { existing_alerts: [{ urgency_id: U_HIGH }] }],
    ['open alerts of other urgencies', {}, FULL, false, { existing_alerts: [{ urgency_id: U_LOW }, BARE] }],
    ['no open alert', {}, FULL, false],
  ]),

  ...pair('source', 'is_one_of', [
    ['the integration source by id', { record_ids: [SRC_DD] }, FULL, true],
    ['another integration source', { record_ids: [SRC_OTHER] }, FULL, false],
    ['the alias in values', { values: ['api'] }, FULL, true],
    ['another alias', { values: ['manual'] }, FULL, false],
    ['an alias-only alert by alias', { values: ['manual'] }, MANUAL, true],
    ['an alias-only alert by ids', { record_ids: [SRC_DD] }, MANUAL, false],
    ['an alert without source', { record_ids: [SRC_DD], values: ['api'] }, BARE, false],
  ]),
  ...pair('source', 'is_not_one_of', [
    ['another integration source', { record_ids: [SRC_OTHER] }, FULL, true],
    ['the alias listed', { values: ['api'] }, FULL, false],
    ['the id listed', { record_ids: [SRC_DD] }, FULL, false],
    ['an alert without source', { record_ids: [SRC_DD] }, BARE, true],
  ]),
  ...pair('source', 'is_set', [
    ['id and alias', {}, FULL, true],
    ['alias only', {}, MANUAL, true],
    ['no source', {}, BARE, false],
  ]),
  ...pair('source', 'is_not_set', [
    ['id and alias', {}, FULL, false],
    ['alias only', {}, MANUAL, false],
    ['no source', {}, BARE, true],
  ]),

  ...pair('service', 'is_one_of', [
    ['the first of its services', { record_ids: [SVC_A] }, FULL, true],
    ['the second of its services', { record_ids: [SVC_X, SVC_B] }, FULL, true],
    ['none of its services', { record_ids: [SVC_X] }, FULL, false],
    ['an alert without services', { record_ids: [SVC_A] }, BARE, false],
  ]),
  ...pair('service', 'is_not_one_of', [
    ['none of its services', { record_ids: [SVC_X] }, FULL, true],
    ['one of its services', { record_ids: [SVC_B] }, FULL, false],
    ['an alert without services', { record_ids: [SVC_A] }, BARE, true],
  ]),
  ...pair('service', 'is_set', [
    ['services present', {}, FULL, true],
    ['an empty list', {}, { service_ids: [] }, false],
    ['missing', {}, BARE, false],
  ]),
  ...pair('service', 'is_not_set', [
    ['services present', {}, FULL, false],
    ['an empty list', {}, { service_ids: [] }, true],
  ]),

  ...pair('group', 'is_one_of', [
    ['its group', { record_ids: [G_OPS] }, FULL, true],
    ['another group', { record_ids: [G_X] }, FULL, false],
    ['an alert without groups', { record_ids: [G_OPS] }, BARE, false],
  ]),
  ...pair('group', 'is_not_one_of', [
    ['another group', { record_ids: [G_X] }, FULL, true],
    ['its group', { record_ids: [G_OPS] }, FULL, false],
    ['an alert without groups', { record_ids: [G_OPS] }, BARE, true],
  ]),
  ...pair('group', 'is_set', [
    ['groups present', {}, FULL, true],
    ['missing', {}, BARE, false],
  ]),
  ...pair('group', 'is_not_set', [
    ['groups present', {}, FULL, false],
    ['missing', {}, BARE, true],
  ]),

  ...pair('alert_field', 'is_one_of', [
    ['its value listed', field(['staging', 'production']), FULL, true],
    ['another value', field(['staging']), FULL, false],
    ['text compares case-sensitively', field(['Production']), FULL, false],
    ['a missing field', field(['production'], 'other'), FULL, false],
  ]),
  ...pair('alert_field', 'is_not_one_of', [
    ['another value', field(['staging']), FULL, true],
    ['its value listed', field(['production']), FULL, false],
    ['a missing field', field(['production'], 'other'), FULL, true],
  ]),
  ...pair('alert_field', 'is_set', [
    ['a filled field', field(), FULL, true],
    ['a blank field', field(undefined, F_BLANK), FULL, false],
    ['a missing field', field(undefined, 'other'), FULL, false],
    ['an alert without fields', field(), { fields: null }, false],
  ]),
  ...pair('alert_field', 'is_not_set', [
    ['a filled field', field(), FULL, false],
    ['a blank field', field(undefined, F_BLANK), FULL, true],
    ['a missing field', field(), BARE, true],
  ]),
  ...pair('alert_field', 'contains', [
    ['a substring', field(['duct']), FULL, true],
    ['no substring', field(['xyz']), FULL, false],
    ['a missing field', field(['p']), BARE, false],
  ]),
  ...pair('alert_field', 'does_not_contain', [
    ['no substring', field(['xyz']), FULL, true],
    ['a substring', field(['xyz', 'prod']), FULL, false],
    ['a missing field', field(['p']), BARE, true],
  ]),
  ...pair('alert_field', 'starts_with', [
    ['its prefix', field(['prod']), FULL, true],
    ['not its prefix', field(['duction']), FULL, false],
  ]),
  ...pair('alert_field', 'ends_with', [
    ['its suffix', field(['tion']), FULL, true],
    ['not its suffix', field(['prod']), FULL, false],
  ]),
  ...pair('alert_field', 'matches_regex', [
    ['a matching pattern', field(['^prod.*n$']), FULL, true],
    ['a pattern that does not match', field(['^staging']), FULL, false],
    ['one of several patterns', field(['^staging', 'uct']), FULL, true],
    ['an inline flag', field(['(?i)^PRODUCTION$']), FULL, true],
    ['a missing field', field(['.*']), BARE, false],
  ]),
  ...pair('alert_field', 'is_empty', [
    ['a blank field', field(undefined, F_BLANK), FULL, true],
    ['a filled field', field(), FULL, false],
  ]),
  ...pair('alert_field', 'matches_existing_alert', [
    ['an open alert with the same value', field(), FULL, true, { existing_alerts: [{ fields: { [F_ENV]: 'production' } }] }],
    ['open alerts with other values', field(), FULL, false, { existing_alerts: [{ fields: { [F_ENV]: 'staging' } }] }],
  ]),

  ...pair('payload', 'is_one_of', [
    ['a string value listed', path('$.priority', ['P1', 'P2']), FULL, true],
    ['a string value not listed', path('$.priority', ['P3']), FULL, false],
    ['a number by its JSON text', path('$.count', ['42']), FULL, true],
    ['a boolean by its JSON text', path('$.ok', ['true']), FULL, true],
    ['an item of an array', path('$.tags[*]', ['disk']), FULL, true],
    ['null is no value', path('$.nothing', ['null']), FULL, false],
    ['a missing path', path('$.missing', ['x']), FULL, false],
    ['bracket notation', path("$['labels']['team']", ['ops']), FULL, true],
  ]),
  ...pair('payload', 'is_not_one_of', [
    ['a string value not listed', path('$.priority', ['P3']), FULL, true],
    ['a string value listed', path('$.priority', ['P1']), FULL, false],
    ['a missing path', path('$.missing', ['x']), FULL, true],
    ['an alert without payload', path('$.priority', ['P1']), BARE, true],
  ]),
  ...pair('payload', 'is_set', [
    ['a string', path('$.priority'), FULL, true],
    ['a number', path('$.count'), FULL, true],
    ['false-y but set: a boolean', path('$.ok'), FULL, true],
    ['an object', path('$.labels'), FULL, true],
    ['an array', path('$.tags'), FULL, true],
    ['an empty array', path('$.none'), FULL, false],
    ['null', path('$.nothing'), FULL, false],
    ['an empty string', path('$.empty'), FULL, false],
    ['a missing path', path('$.missing'), FULL, false],
    ['a path below a scalar', path('$.priority.deeper'), FULL, false],
    ['an alert without payload', path('$.priority'), BARE, false],
    ['a payload that is a scalar', path('$.priority'), { payload: 'text' }, false],
    ['the root of a scalar payload', path('$'), { payload: 7 }, true],
  ]),
  ...pair('payload', 'is_not_set', [
    ['a missing path', path('$.missing'), FULL, true],
    ['null', path('$.nothing'), FULL, true],
    ['a string', path('$.priority'), FULL, false],
    ['an alert without payload', path('$.priority'), BARE, true],
  ]),
  ...pair('payload', 'contains', [
    ['a substring', path('$.host', ['db-1']), FULL, true],
    ['no substring', path('$.host', ['xyz']), FULL, false],
    ['a number by its digits', path('$.count', ['4']), FULL, true],
    ['objects are not text', path('$.labels', ['ops']), FULL, false],
    ['any selected node', path('$..team', ['op']), FULL, true],
  ]),
  ...pair('payload', 'does_not_contain', [
    ['no substring', path('$.host', ['xyz']), FULL, true],
    ['a substring', path('$.host', ['db']), FULL, false],
    ['a missing path', path('$.missing', ['x']), FULL, true],
    ['no item contains it', path('$.tags[*]', ['net']), FULL, true],
    ['an item contains it', path('$.tags[*]', ['is']), FULL, false],
  ]),
  ...pair('payload', 'starts_with', [
    ['its prefix', path('$.host', ['db']), FULL, true],
    ['not its prefix', path('$.host', ['eu']), FULL, false],
    ['a decimal by its JSON text', path('$.ratio', ['0.']), FULL, true],
  ]),
  ...pair('payload', 'ends_with', [
    ['its suffix', path('$.host', ['.eu']), FULL, true],
    ['not its suffix', path('$.host', ['.us']), FULL, false],
    ['a boolean by its JSON text', path('$.ok', ['rue']), FULL, true],
  ]),
  ...pair('payload', 'matches_regex', [
    ['a matching pattern', path('$.host', ['^db-\\d+\\.eu$']), FULL, true],
    ['a pattern that does not match', path('$.host', ['^web-']), FULL, false],
    ['a number (non-string) value', path('$.count', ['^\\d+$']), FULL, true],
    ['a number that does not match', path('$.count', ['^4$']), FULL, false],
    ['a boolean (non-string) value', path('$.ok', ['^true$']), FULL, true],
    ['a decimal (non-string) value', path('$.ratio', ['^0\\.5$']), FULL, true],
    ['null never matches', path('$.nothing', ['.*']), FULL, false],
    ['an object never matches', path('$.labels', ['team']), FULL, false],
    ['an array never matches as a whole', path('$.tags', ['db']), FULL, false],
    ['each item of an array', path('$.tags[*]', ['^dis']), FULL, true],
    ['descendants', path('$..team', ['^ops$']), FULL, true],
    ['a missing path', path('$.missing', ['.*']), FULL, false],
    ['a filter selection', path("$.tags[?@ == 'db']", ['^db$']), FULL, true],
  ]),
  ...pair('payload', 'is_empty', [
    ['null', path('$.nothing'), FULL, true],
    ['a string', path('$.priority'), FULL, false],
  ]),
  ...pair('payload', 'matches_existing_alert', [
    ['an open alert on the same host', path('$.host'), FULL, true, { existing_alerts: [{ payload: { host: 'db-1.eu' } }] }],
    ['open alerts on other hosts', path('$.host'), FULL, false, { existing_alerts: [{ payload: { host: 'db-2.eu' } }, BARE] }],
    ['an alert without the value', path('$.host'), BARE, false, { existing_alerts: [BARE] }],
  ]),

  ...pair('attribute', 'is_one_of', [
    ['its summary', path('summary', ['Disk full on db-1']), FULL, true],
    ['another summary', path('summary', ['x']), FULL, false],
  ]),
  ...pair('attribute', 'is_not_one_of', [['another summary', path('summary', ['x']), FULL, true]]),
  ...pair('attribute', 'contains', [
    ['a word of the summary', path('summary', ['full']), FULL, true],
    ['a null description', path('description', ['x']), FULL, false],
  ]),
  ...pair('attribute', 'does_not_contain', [['a null description', path('description', ['x']), FULL, true]]),
  ...pair('attribute', 'starts_with', [['the URL scheme', path('external_url', ['https://']), FULL, true]]),
  ...pair('attribute', 'ends_with', [['the summary end', path('summary', ['db-1']), FULL, true]]),
  ...pair('attribute', 'matches_regex', [
    ['the summary', path('summary', ['db-\\d$']), FULL, true],
    ['the URL', path('external_url', ['^http://']), FULL, false],
  ]),
  ...pair('attribute', 'is_empty', [
    ['a null description', path('description'), FULL, true],
    ['a summary', path('summary'), FULL, false],
  ]),
  ...pair('attribute', 'matches_existing_alert', [
    ['an open alert with the same summary', path('summary'), FULL, true, { existing_alerts: [{ summary: 'Disk full on db-1' }] }],
  ]),
];
