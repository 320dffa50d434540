import { EVENT_TYPES } from '@firewatch/events';
import type { JsonObject } from './reference-document.js';

/** One deliberate difference between the reference and our API, on one object schema. */
export interface SchemaDeviation {
  /** Why, citing the page of docs/ that makes it so (api-contract.md, decisions.md, design.md or the family's page). */
  because: string;
  /** Reference property name → ours; a `required` entry moves with it. */
  renames?: Record<string, string>;
  /** Properties whose reference schema gives way to this one (JSON Schema, ajv's dialect). */
  replaces?: Record<string, JsonObject>;
  /** Properties the reference lacks; resource attributes are closed otherwise. */
  adds?: Record<string, JsonObject>;
}

const nullable = (type: string, more: JsonObject = {}) => ({ type: [type, 'null'], ...more });
const role = { enum: ['admin', 'user', 'observer', null] };
const ids = nullable('array', { items: { type: 'string' } });
const wallClock = { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' };
const DAY_NAMES = ['S', 'M', 'T', 'W', 'R', 'F', 'U'];
const activeTimes = {
  type: 'array',
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['start_time', 'end_time'],
    properties: { start_time: wallClock, end_time: wallClock },
  },
};

/**
 * The declared deviations, keyed by the reference's component schema name. A deviation
 * naming a property the reference lacks (or adding one it has) fails the suite at load,
 * so this map cannot silently drift from the reference document.
 */
export const REFERENCE_DEVIATIONS: Readonly<Record<string, readonly SchemaDeviation[]>> = {
  meta: [
    {
      because:
        'docs/api-contract.md §2 (Query parameters, Cursor pages): a cursor page counts nothing, so its totals and page numbers are null, as the reference has them on its alert event feed (alert_event_feed_meta)',
      replaces: { total_count: nullable('integer'), total_pages: nullable('integer') },
    },
  ],
  environment: [
    {
      because: 'docs/api-contract.md §2 (Documents): the chat lists are chat_channels and chat_aliases (the reference: slack_*)',
      renames: { slack_channels: 'chat_channels', slack_aliases: 'chat_aliases' },
    },
  ],
  service: [
    {
      because:
        'docs/api-contract.md §2 (Documents): chat lists are chat_* where the reference says slack_* (the contract wins over the reference on attribute names)',
      renames: { slack_channels: 'chat_channels', slack_aliases: 'chat_aliases' },
    },
    {
      because:
        "docs/decisions.md (services and functionalities): the reference's own new_service writes show_uptime, show_uptime_last_days and opsgenie_team_id, and its list filter and bulk entity name opslevel_id: what is written is read back",
      adds: {
        show_uptime: nullable('boolean'),
        show_uptime_last_days: { enum: [30, 60, 90, null] },
        opsgenie_team_id: nullable('string'),
        opslevel_id: nullable('string'),
      },
    },
  ],
  functionality: [
    {
      because:
        'docs/api-contract.md §2 (Documents): chat lists are chat_* where the reference says slack_* (the contract wins over the reference on attribute names)',
      renames: { slack_channels: 'chat_channels', slack_aliases: 'chat_aliases' },
    },
    {
      because:
        "docs/decisions.md (services and functionalities): the reference's own new_functionality writes show_uptime and show_uptime_last_days, and its list filter and bulk entity name opslevel_id: what is written is read back",
      adds: { show_uptime: nullable('boolean'), show_uptime_last_days: { enum: [30, 60, 90, null] }, opslevel_id: nullable('string') },
    },
  ],
  team: [
    {
      because:
        'docs/api-contract.md §2 (Documents): chat lists are chat_* where the reference says slack_* (the contract wins over the reference on attribute names)',
      renames: { slack_channels: 'chat_channels', slack_aliases: 'chat_aliases' },
    },
    {
      because:
        "docs/decisions.md (Resources, Groups): the reference's own new_team writes opsgenie_team_id, and its list filter and bulk entity name opslevel_id: what is written is read back",
      adds: { opsgenie_team_id: nullable('string'), opslevel_id: nullable('string') },
    },
  ],
  secret: [
    {
      because:
        'docs/decisions.md (secrets), docs/api-contract.md §2 (Documents): the vault fields are external_vault_mount, external_vault_path and external_vault_version (the reference: hashicorp_vault_*)',
      renames: {
        hashicorp_vault_mount: 'external_vault_mount',
        hashicorp_vault_path: 'external_vault_path',
        hashicorp_vault_version: 'external_vault_version',
      },
    },
    {
      because:
        "docs/decisions.md (secrets), docs/security.md (Secrets): a secret has owner_group_ids; kind is the reference's own create attribute (new_secret), read back",
      adds: { owner_group_ids: { type: 'array', items: { type: 'string' } }, kind: { enum: ['built_in', 'hashicorp_vault'] } },
    },
  ],
  dashboard: [
    {
      because:
        "docs/decisions.md (dashboards), docs/api-contract.md §2 (Documents): a dashboard's {id} is its UUID or its slug (the reference's own path parameter), so the slug is answered",
      adds: { slug: { type: 'string' } },
    },
    {
      because:
        "docs/decisions.md (defaults for what only the reference requires): the specification has color a hex colour code, so any #RGB or #RRGGBB, not the reference's five",
      replaces: { color: { type: ['string', 'null'], pattern: '^#([0-9a-fA-F]{3}){1,2}$' } },
    },
  ],
  alerts_source: [
    {
      because:
        'docs/on-call.md ("Alert sources", "Ingestion"): a source shows when a payload was last accepted and why the last one was refused, so a misconfigured monitoring tool is found through the API; a source without a default urgency has alert_urgency_id null (the reference\'s create does not require one)',
      replaces: { alert_urgency_id: nullable('string') },
      adds: {
        last_received_at: nullable('string', { format: 'date-time' }),
        last_error_at: nullable('string', { format: 'date-time' }),
        last_error_message: nullable('string'),
      },
    },
    {
      because:
        'docs/on-call.md ("Ingestion rate limit"): a source may set its own ingestion rate limit, payloads a minute; null is the deployment\'s default',
      adds: { rate_limit_per_minute: nullable('integer', { minimum: 1 }) },
    },
  ],
  alert_route: [
    {
      because:
        'docs/paging.md ("Alert routing"): a route has a slug (the reference filters routes by slug; {id} takes it too) and, as every resource, its created_at and updated_at',
      adds: {
        slug: { type: 'string' },
        created_at: { type: 'string', format: 'date-time' },
        updated_at: { type: 'string', format: 'date-time' },
      },
    },
  ],
  alert_routing_rule: [
    {
      because:
        'docs/paging.md ("Alert routing"): a legacy rule has a slug (the reference filters rules by slug) and reads back the owning_team_ids its create and update write',
      adds: { slug: { type: 'string' }, owning_team_ids: { type: 'array', items: { type: 'string' } } },
    },
  ],
  alert: [
    {
      because:
        'docs/on-call.md ("Alerts", "Deduplication"): an alert names the alert source it came from and counts how many times it was received (deduplicated arrivals)',
      adds: { alert_source_id: nullable('string', { format: 'uuid' }), received_count: { type: 'integer', minimum: 1 } },
    },
  ],
  webhooks_endpoint: [
    {
      because: 'docs/api-contract.md §5: the event types are our catalog, the one GET /v1/webhooks/event_types serves',
      replaces: { event_types: { type: 'array', items: { enum: [...EVENT_TYPES] } } },
    },
  ],
  webhooks_delivery: [
    {
      because:
        'docs/api-contract.md §5 (deliveries are retried and keep their attempts), docs/webhooks.md: a delivery shows its event, state and retry schedule',
      adds: {
        event_id: { type: 'string', format: 'uuid' },
        event_type: { enum: [...EVENT_TYPES] },
        status: { enum: ['pending', 'delivered', 'failed'] },
        attempt_count: { type: 'integer', minimum: 0 },
        next_attempt_at: nullable('string', { format: 'date-time' }),
        last_status_code: nullable('integer'),
      },
    },
  ],
  api_key: [
    {
      because:
        "docs/api-contract.md §3.1, docs/decisions.md (identity and permissions): kinds are global, group, personal and record (the reference's organization and team are write aliases)",
      replaces: { kind: { enum: ['global', 'group', 'personal', 'record'] } },
    },
    {
      because:
        'docs/api-contract.md §3.1, docs/design.md (credentials): a key carries roles (null on a personal key, which acts as its user), capabilities, group or record scope and its user; docs/decisions.md (identity and permissions): per-key limits, set by an operator',
      adds: {
        role,
        on_call_role: role,
        capabilities: { type: 'array', items: { enum: ['read', 'create', 'update', 'delete'] } },
        group_ids: ids,
        record_ids: ids,
        user_id: nullable('integer'),
        rate_limit_read: nullable('integer'),
        rate_limit_write: nullable('integer'),
      },
    },
  ],
  incident: [
    {
      because:
        "docs/decisions.md (incidents): an incident is written with severity_id, service_ids, environment_ids, functionality_ids and incident_type_ids (the reference's new_incident); what is written is read back, and the records themselves come with include=services|environments|functionalities|incident_types",
      adds: { severity_id: nullable('string'), service_ids: ids, environment_ids: ids, functionality_ids: ids, incident_type_ids: ids },
    },
  ],
  severity: [
    {
      because: 'docs/api-contract.md §2 (Documents): the chat lists are chat_channels and chat_aliases (the reference: slack_*)',
      renames: { slack_channels: 'chat_channels', slack_aliases: 'chat_aliases' },
    },
  ],
  incident_type: [
    {
      because: 'docs/api-contract.md §2 (Documents): the chat lists are chat_channels and chat_aliases (the reference: slack_*)',
      renames: { slack_channels: 'chat_channels', slack_aliases: 'chat_aliases' },
    },
  ],
  communications_template: [
    {
      because:
        "docs/communications.md, docs/api-contract.md §2 (Documents): a stage's chat text is chat_content (the reference: slack_content); the stage's attributes are closed here so the reference's name cannot leak",
      replaces: {
        communication_template_stages: nullable('array', {
          items: {
            type: 'object',
            required: ['data'],
            properties: {
              data: {
                type: 'object',
                required: ['id', 'type', 'attributes'],
                properties: {
                  id: { type: 'string' },
                  type: { const: 'communications_template_stages' },
                  attributes: {
                    type: 'object',
                    additionalProperties: false,
                    properties: {
                      email_body: nullable('string'),
                      email_subject: nullable('string'),
                      chat_content: nullable('string'),
                      sms_content: nullable('string'),
                      created_at: { type: 'string', format: 'date-time' },
                      updated_at: { type: 'string', format: 'date-time' },
                      communication_stage: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } },
                      communication_template: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } },
                    },
                  },
                },
              },
            },
          },
        }),
      },
    },
  ],
  escalation_policy: [
    {
      because:
        'docs/paging.md (Escalation policies): created_by_user_id and last_updated_by_user_id are the user of the credential that wrote the policy, null for a key of no user (a global API key)',
      replaces: { created_by_user_id: nullable('integer'), last_updated_by_user_id: nullable('integer') },
    },
  ],
  schedule_rotation: [
    {
      because:
        "docs/on-call.md (schedules): handoff and active times are wall-clock HH:MM in the rotation's time_zone; the reference's format time (RFC 3339 full-time) needs an offset that would contradict time_zone",
      replaces: {
        schedule_rotationable_attributes: {
          oneOf: [
            { type: 'object', additionalProperties: false, required: ['handoff_time'], properties: { handoff_time: wallClock } },
            {
              type: 'object',
              additionalProperties: false,
              required: ['handoff_time', 'handoff_day'],
              properties: { handoff_time: wallClock, handoff_day: { enum: DAY_NAMES } },
            },
            {
              type: 'object',
              additionalProperties: false,
              required: ['handoff_time', 'handoff_day'],
              properties: { handoff_time: wallClock, handoff_day: { enum: ['first_day_of_month', 'last_day_of_month'] } },
            },
            {
              type: 'object',
              additionalProperties: false,
              required: ['shift_length', 'shift_length_unit', 'handoff_time'],
              properties: {
                shift_length: { type: 'integer' },
                shift_length_unit: { enum: ['hours', 'days', 'weeks'] },
                handoff_time: wallClock,
              },
            },
          ],
        },
        active_time_attributes: activeTimes,
      },
    },
    {
      because:
        "the reference's schedule_rotation types active_time_type a string but puts its enum (all_day, same_time, custom) under `items`, which no string has: the enum it means is held",
      replaces: { active_time_type: { type: 'string', enum: ['all_day', 'same_time', 'custom'] } },
    },
  ],
  schedule_rotation_active_day: [
    {
      because:
        "docs/on-call.md (schedules): active times are wall-clock HH:MM in the rotation's time_zone, without the offset the reference's format time needs",
      replaces: { active_time_attributes: activeTimes },
    },
  ],
  user: [
    {
      because:
        "docs/api-contract.md §3.6 and §3.7 (the users directory): a user has team_id, role and on_call_role (the userinfo claims), and name, the full name again under the userinfo claim's name; docs/oauth.md (client-credentials applications): applications act as service users (is_service_account)",
      adds: {
        name: { type: 'string' },
        role: { enum: ['admin', 'user', 'observer'] },
        on_call_role: { enum: ['admin', 'user', 'observer'] },
        team_id: { type: 'integer' },
        is_service_account: { type: 'boolean' },
      },
    },
  ],
};
