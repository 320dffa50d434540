import { GROUP_CONDITION_TYPES, PROPERTY_FIELD_TYPES } from './alert-groups.conditions.js';

/** Most alert groups one team holds: the reference lists them unpaged, so one answer must carry them all. */
export const MAX_ALERT_GROUPS = 200;
/** A group stays open to new alerts at most a week. */
export const MAX_TIME_WINDOW_MINUTES = 10_080;

const strings = { type: 'array', items: { type: 'string' } };
const nullableString = { type: ['string', 'null'] };

/** OpenAPI schemas of the response attributes the write schemas do not describe (computed, or shaped by `presentCondition`). */
export const alertGroupSchemas: Record<string, Record<string, unknown>> = {
  slug: { type: 'string' },
  group_by_alert_title: { type: 'boolean', deprecated: true, description: 'Whether a summary matches_existing_alert condition is among the conditions.' },
  group_by_alert_urgency: { type: 'boolean', deprecated: true, description: 'Whether an alert_urgency matches_existing_alert condition is among the conditions.' },
  attributes: {
    type: 'array', deprecated: true, description: 'The JSON paths of the payload matches_existing_alert conditions.',
    items: { type: 'object', properties: { json_path: { type: 'string' } }, required: ['json_path'] },
  },
  deleted_at: { type: ['string', 'null'], format: 'date-time' },
  conditions: {
    type: 'array',
    items: {
      type: 'object',
      required: ['id', 'property_field_type', 'property_field_condition_type'],
      properties: {
        id: { type: 'string', format: 'uuid' },
        property_field_type: { type: 'string', enum: [...PROPERTY_FIELD_TYPES] },
        property_field_name: nullableString,
        property_field_condition_type: { type: 'string', enum: [...GROUP_CONDITION_TYPES] },
        property_field_value: nullableString,
        property_field_values: strings,
        values: {
          type: 'array',
          items: { type: 'object', properties: { record_id: { type: 'string' }, record_type: { type: 'string', enum: ['AlertUrgency'] } }, required: ['record_id', 'record_type'] },
        },
        alert_urgency_ids: { type: ['array', 'null'], items: { type: 'string' } },
        conditionable_type: { type: ['string', 'null'], enum: ['AlertField', null] },
        conditionable_id: nullableString,
      },
    },
  },
};
