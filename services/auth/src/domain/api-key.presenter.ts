import type { ResourceObject } from '@firewatch/jsonapi';
import type { ApiKeyRow } from './api-key.store.js';

export const API_KEY_TYPE = 'api_keys';

export interface ApiKeyAttributes extends Record<string, unknown> {
  name: string;
  description: string | null;
  kind: ApiKeyRow['kind'];
  role: ApiKeyRow['role'];
  on_call_role: ApiKeyRow['on_call_role'];
  capabilities: ApiKeyRow['capabilities'];
  group_ids: string[] | null;
  record_ids: string[] | null;
  user_id: number | null;
  expires_at: string | null;
  last_used_at: string | null;
  grace_period_ends_at: string | null;
  rate_limit_read: number | null;
  rate_limit_write: number | null;
  created_at: string;
  updated_at: string;
}

export type ApiKeyResource = ResourceObject<ApiKeyAttributes>;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The key as the API, the CLI and events show it. Built field by field so that the
 * hash and the lookup prefix can never leak through a new column.
 */
export function toApiKeyResource(row: ApiKeyRow): ApiKeyResource {
  return {
    id: row.id,
    type: API_KEY_TYPE,
    attributes: {
      name: row.name,
      description: row.description,
      kind: row.kind,
      role: row.role,
      on_call_role: row.on_call_role,
      capabilities: row.capabilities,
      group_ids: row.group_ids,
      record_ids: row.record_ids,
      user_id: row.user_id,
      expires_at: iso(row.expires_at),
      last_used_at: iso(row.last_used_at),
      grace_period_ends_at: iso(row.grace_period_ends_at),
      rate_limit_read: row.rate_limit_read,
      rate_limit_write: row.rate_limit_write,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    },
  };
}

/** A key together with the token that was just issued for it: shown this once only. */
export interface IssuedApiKey {
  resource: ApiKeyResource;
  token: string;
}
