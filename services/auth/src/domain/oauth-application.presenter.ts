import type { ResourceObject } from '@firewatch/jsonapi';
import type { OAuthApplicationRow } from './oauth-application.store.js';
import { OAUTH_APPLICATION_TYPE } from './oauth-application.schemas.js';

export interface OAuthApplicationAttributes extends Record<string, unknown> {
  name: string;
  description: string | null;
  client_id: string;
  scopes: string[];
  grant_types: string[];
  token_endpoint_auth_methods: string[];
  service_user_id: number;
  created_by_user_id: number | null;
  created_at: string;
  updated_at: string;
}

export type OAuthApplicationResource = ResourceObject<OAuthApplicationAttributes>;

/** An application as the API, the CLI show it; the secret is never part of it. */
export function toOAuthApplicationResource(row: OAuthApplicationRow): OAuthApplicationResource {
  return {
    id: row.id,
    type: OAUTH_APPLICATION_TYPE,
    attributes: {
      name: row.name,
      description: row.description,
      client_id: row.client_id,
      scopes: row.scopes,
      grant_types: ['client_credentials'],
      token_endpoint_auth_methods: ['client_secret_basic', 'client_secret_post'],
      service_user_id: row.service_user_id,
      created_by_user_id: row.created_by_user_id,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    },
  };
}

/** An application with the client secret just issued for it: shown this once only. */
export interface IssuedOAuthApplication {
  resource: OAuthApplicationResource;
  client_secret: string;
}
