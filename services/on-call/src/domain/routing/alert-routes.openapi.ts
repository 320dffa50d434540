import { TARGET_TYPES } from '../targets/targets.deps.js';
import { ROUTING_CONDITION_TYPES } from './routing.conditions.js';

/** The OpenAPI schemas of an alert route's response attributes beyond the declaration's own (alert-routes.resource.ts). */

const strings = (format?: string) => ({ type: 'array', items: { type: 'string', ...(format ? { format } : {}) } });
const nullableString = { type: 'string', nullable: true };

const destinationSchema = {
  type: 'object',
  required: ['id', 'target_type', 'target_id'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    target_type: { type: 'string', enum: [...TARGET_TYPES] },
    target_id: { type: 'string', format: 'uuid' },
  },
};

const conditionSchema = {
  type: 'object',
  required: ['id', 'property_field_type', 'property_field_condition_type'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    property_field_type: { type: 'string', enum: ['attribute', 'payload', 'alert_field'] },
    property_field_name: nullableString,
    property_field_condition_type: { type: 'string', enum: [...ROUTING_CONDITION_TYPES] },
    property_field_value: nullableString,
    property_field_values: strings(),
    alert_urgency_ids: { ...strings('uuid'), nullable: true },
    conditionable_type: { type: 'string', enum: ['AlertField'], nullable: true },
    conditionable_id: nullableString,
  },
};

/** OpenAPI schemas of the response attributes (ids included, so a PUT or PATCH can name them). */
export const alertRouteSchemas: Record<string, Record<string, unknown>> = {
  slug: { type: 'string' },
  rules: {
    type: 'array',
    items: {
      type: 'object',
      required: ['id', 'name', 'position', 'fallback_rule', 'destinations', 'condition_groups'],
      properties: {
        id: { type: 'string', format: 'uuid' },
        name: { type: 'string' },
        position: { type: 'integer' },
        fallback_rule: { type: 'boolean' },
        destinations: { type: 'array', items: destinationSchema },
        condition_groups: {
          type: 'array',
          items: {
            type: 'object',
            required: ['id', 'position', 'conditions'],
            properties: {
              id: { type: 'string', format: 'uuid' },
              position: { type: 'integer' },
              conditions: { type: 'array', items: conditionSchema },
            },
          },
        },
      },
    },
  },
};
