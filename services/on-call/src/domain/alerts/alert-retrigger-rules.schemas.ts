import { OPERATORS, operatorsFor, RETRIGGER_VOCABULARY, type ConditionKind } from '../matching/index.js';

/** Whether all conditions or one of them must hold (docs/on-call.md). */
export const MATCH_MODES = ['match-all-rules', 'match-any-rule'] as const;
export type RetriggerMatchMode = (typeof MATCH_MODES)[number];

/** The timeouts a rule may set, in minutes after acknowledgment (null: never; docs/on-call.md). */
export const TIMEOUT_MINUTES = [10, 20, 30, 40, 50, 60, 90, 120, 180, 240, 300, 360, 720, 1440] as const;

/** Most rules one team holds: evaluation reads them all. */
export const MAX_RETRIGGER_RULES = 200;

const KINDS = Object.keys(RETRIGGER_VOCABULARY.kinds) as ConditionKind[];
const RULE_OPERATORS = OPERATORS.filter((o) => KINDS.some((k) => operatorsFor(RETRIGGER_VOCABULARY, k).includes(o)));
const strings = (format?: string) => ({ type: 'array', items: { type: 'string', ...(format ? { format } : {}) } });

/** The condition as responses show it (docs/on-call.md): every member present, `id` included. */
export const retriggerConditionSchema = {
  type: 'object',
  required: ['id', 'kind', 'operator', 'record_ids', 'values'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    kind: { type: 'string', enum: KINDS },
    operator: { type: 'string', enum: RULE_OPERATORS },
    record_ids: strings('uuid'),
    values: strings(),
    property_field_name: { type: 'string', description: 'alert_field: the alert field id; payload: a JSON Path. Absent on other kinds.' },
  },
};

/** OpenAPI schemas of response attributes the write schemas describe differently. */
export const retriggerRuleSchemas: Record<string, Record<string, unknown>> = {
  conditions: { type: 'array', items: retriggerConditionSchema },
  timeout_minutes: {
    type: ['integer', 'null'],
    description: 'Minutes after acknowledgment at which the alert is re-triggered; null: never.',
  },
};
