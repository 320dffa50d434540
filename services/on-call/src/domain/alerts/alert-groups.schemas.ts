import { TARGET_TYPES } from '../targets/targets.deps.js';
import { GROUP_CONDITION_TYPES, PROPERTY_FIELD_TYPES } from './alert-groups.conditions.js';

/**
 * Most alert groups one team holds: the reference lists them unpaged, so one answer
 * carries them all (a page holds at most 100, the bound of every list: docs/api-contract.md §6).
 */
export const MAX_ALERT_GROUPS = 100;
/** A group stays open to new alerts at most a week. */
export const MAX_TIME_WINDOW_MINUTES = 10_080;

const strings = { type: 'array', items: { type: 'string' } };
const nullableString = { type: ['string', 'null'] };

/** OpenAPI schemas of the response attributes the write schemas do not describe (computed, or shaped by `presentCondition`). */
export const alertGroupSchemas: Record<string, Record<string, unknown>> = {
  slug: { type: 'string' },
  group_by_alert_title: {
    type: 'boolean',
    deprecated: true,
    description: 'Whether a summary matches_existing_alert condition is among the conditions.',
  },
  group_by_alert_urgency: {
    type: 'boolean',
    deprecated: true,
    description: 'Whether an alert_urgency matches_existing_alert condition is among the conditions.',
  },
  attributes: {
    type: 'array',
    deprecated: true,
    description: 'The JSON paths of the payload matches_existing_alert conditions.',
    items: { type: 'object', properties: { json_path: { type: 'string' } }, required: ['json_path'] },
  },
  deleted_at: { type: ['string', 'null'], format: 'date-time' },
  // Sent without target_type, a target gets it from its id: answers always carry it.
  targets: {
    type: 'array',
    items: {
      type: 'object',
      required: ['target_type', 'target_id'],
      properties: { target_type: { type: 'string', enum: [...TARGET_TYPES] }, target_id: { type: 'string', format: 'uuid' } },
    },
  },
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
          items: {
            type: 'object',
            properties: { record_id: { type: 'string' }, record_type: { type: 'string', enum: ['AlertUrgency'] } },
            required: ['record_id', 'record_type'],
          },
        },
        alert_urgency_ids: { type: ['array', 'null'], items: { type: 'string' } },
        conditionable_type: { type: ['string', 'null'], enum: ['AlertField', null] },
        conditionable_id: nullableString,
      },
    },
  },
};

const explanation = {
  type: 'object',
  required: ['id', 'index', 'property_field_type', 'property_field_condition_type', 'matched', 'reason'],
  properties: {
    id: { type: ['string', 'null'] },
    index: { type: 'integer' },
    property_field_type: { type: 'string', enum: [...PROPERTY_FIELD_TYPES] },
    property_field_name: nullableString,
    property_field_condition_type: { type: 'string', enum: [...GROUP_CONDITION_TYPES] },
    conditionable_id: nullableString,
    matched: { type: 'boolean' },
    reason: { type: 'string', description: 'What the alert had and what was asked.' },
  },
};

/** The answer of `POST /v1/alert_groups/evaluate`. */
export const evaluationDocument: Record<string, unknown> = {
  type: 'object',
  required: ['data'],
  properties: {
    data: {
      type: 'object',
      required: ['id', 'type', 'attributes'],
      properties: {
        id: { type: 'string', description: 'Made for this answer; nothing is stored.' },
        type: { const: 'alert_group_evaluations' },
        attributes: {
          type: 'object',
          required: ['alert_group_id', 'alert_group', 'groups'],
          properties: {
            alert_group_id: { type: ['string', 'null'], description: 'The group the alert would join; null when none.' },
            alert_group: {
              type: ['object', 'null'],
              properties: { id: { type: 'string' }, name: { type: 'string' }, slug: { type: 'string' }, time_window: { type: 'integer' } },
            },
            groups: {
              type: 'array',
              description: 'Every group of the team, oldest first (the order they are tried in).',
              items: {
                type: 'object',
                required: ['alert_group_id', 'name', 'condition_type', 'targeted', 'matched', 'conditions'],
                properties: {
                  alert_group_id: { type: 'string' },
                  name: { type: 'string' },
                  condition_type: { type: 'string', enum: ['all', 'any'] },
                  targeted: { type: 'boolean', description: "The group has no targets, or one of them is the alert's." },
                  matched: { type: 'boolean' },
                  conditions: { type: 'array', items: explanation },
                },
              },
            },
          },
        },
      },
    },
  },
};
