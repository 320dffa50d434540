import { assembleDocument, type OpenApiDocument } from '@firewatch/openapi';
import { registryOpenApi } from '@firewatch/resource-kit';
import { registry } from '../domain/registry.js';
import { apiKeysOpenApi } from './api-keys.openapi.js';
import { oauthApplicationsOpenApi } from './oauth-applications.openapi.js';
import { usersOpenApi } from './users.openapi.js';

/** The auth service's `/v1` API (served at its own `/openapi.json`; the gateway merges it). */
export function authOpenApiDocument(): OpenApiDocument {
  return assembleDocument({ title: 'Firewatch auth', version: '1.0.0' }, [
    apiKeysOpenApi,
    usersOpenApi,
    oauthApplicationsOpenApi,
    ...registryOpenApi(registry),
  ]);
}
