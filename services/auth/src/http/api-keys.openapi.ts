import { API_KEY_KINDS, CAPABILITIES, ROLES } from '@firewatch/auth';
import {
  BEARER,
  errorResponses,
  fromZod,
  IF_MATCH,
  IF_NONE_MATCH,
  issuedResourceSchema,
  jsonApiContent,
  listParameters,
  NOT_MODIFIED,
  pathParameter,
  ref,
  requestDocumentSchema,
  resourceSchemas,
  schema,
  taggedResponse,
  type Json,
  type OpenApiPart,
} from '@firewatch/openapi';
import { API_KEY_TYPE } from '../domain/api-key.presenter.js';
import { apiCreateApiKeySchema, rotateApiKeySchema, updateApiKeySchema } from '../domain/api-key.schemas.js';
import { API_KEY_LIST_SPEC } from './api-keys.routes.js';

const T = API_KEY_TYPE;
const id = pathParameter('id', 'The API key id (UUID).');
const tags = ['api_keys'];
const ADMIN = 'Team admins only, with a credential limited by neither records nor groups (OAuth: `all` or `ir.all`).';

// As toApiKeyResource writes them; the hash and lookup prefix never appear.
const attributes: Record<string, Json> = {
  name: schema.string(),
  description: schema.nullable('string'),
  kind: schema.enum(API_KEY_KINDS),
  role: schema.enum(ROLES, true),
  on_call_role: schema.enum(ROLES, true),
  capabilities: schema.array({ type: 'string', enum: [...CAPABILITIES] }),
  group_ids: schema.array({ type: 'string' }, true),
  record_ids: schema.array({ type: 'string' }, true),
  user_id: schema.nullable('integer', 'The user a personal key acts as.'),
  expires_at: schema.dateTime(true),
  last_used_at: schema.dateTime(true),
  grace_period_ends_at: schema.dateTime(true),
  rate_limit_read: schema.nullable('integer', 'Reads per window for this key; null: the defaults.'),
  rate_limit_write: schema.nullable('integer', 'Writes per window for this key; null: the defaults.'),
  created_at: schema.dateTime(),
  updated_at: schema.dateTime(),
};

const one = (description: string) => ({ description, ...jsonApiContent(ref(`${T}_response`)) });

/** `/v1/api_keys` and `POST /v1/api_keys/{id}/rotate`, as api-keys.routes.ts serves them. */
export const apiKeysOpenApi: OpenApiPart = {
  schemas: {
    ...resourceSchemas(T, attributes),
    [`issued_${T}`]: issuedResourceSchema(T, 'token', 'The bearer token (`fwk_...`); shown this once, only its hash is stored.'),
    [`new_${T}`]: requestDocumentSchema(T, fromZod(apiCreateApiKeySchema), { withId: false }),
    [`update_${T}`]: requestDocumentSchema(T, fromZod(updateApiKeySchema), { withId: true }),
    [`rotate_${T}`]: requestDocumentSchema(T, fromZod(rotateApiKeySchema), { withId: true }),
  },
  paths: {
    '/v1/api_keys': {
      get: {
        operationId: `list_${T}`,
        summary: 'List API keys',
        description: ADMIN,
        tags,
        security: BEARER,
        parameters: listParameters({ ...API_KEY_LIST_SPEC, cursor: true }),
        responses: { '200': { description: 'A page of keys', ...jsonApiContent(ref(`${T}_list`)) }, ...errorResponses(400, 401, 403, 429) },
      },
      post: {
        operationId: `create_${T}`,
        summary: 'Create an API key',
        description: `${ADMIN} The answer carries the token, once.`,
        tags,
        security: BEARER,
        requestBody: { required: true, ...jsonApiContent(ref(`new_${T}`)) },
        responses: {
          '201': { description: 'Created; `Location` names the new key', ...jsonApiContent(ref(`issued_${T}`)) },
          ...errorResponses(400, 401, 403, 415, 422, 429),
        },
      },
    },
    '/v1/api_keys/{id}': {
      get: {
        operationId: `get_${T}`,
        summary: 'Get an API key',
        description: ADMIN,
        tags,
        security: BEARER,
        parameters: [id, IF_NONE_MATCH],
        responses: { '200': taggedResponse(one('The key')), ...NOT_MODIFIED, ...errorResponses(400, 401, 403, 404, 429) },
      },
      put: {
        operationId: `update_${T}`,
        summary: 'Update an API key',
        description: `${ADMIN} Only name, description and expiry change; kind and roles need a new key.`,
        tags,
        security: BEARER,
        parameters: [id, IF_MATCH],
        requestBody: { required: true, ...jsonApiContent(ref(`update_${T}`)) },
        responses: { '200': taggedResponse(one('The updated key')), ...errorResponses(400, 401, 403, 404, 412, 415, 422, 429) },
      },
      delete: {
        operationId: `delete_${T}`,
        summary: 'Revoke an API key',
        description: `${ADMIN} The key stops working at once (within the gateway's credential cache time).`,
        tags,
        security: BEARER,
        parameters: [id, IF_MATCH],
        responses: { '200': one('The revoked key'), ...errorResponses(400, 401, 403, 404, 412, 429) },
      },
    },
    '/v1/api_keys/{id}/rotate': {
      post: {
        operationId: `rotate_${T}`,
        summary: 'Rotate an API key',
        description: `${ADMIN} Issues a new token; the old one keeps working for \`grace_period_minutes\`. The body is optional.`,
        tags,
        security: BEARER,
        parameters: [id, IF_MATCH],
        requestBody: { required: false, ...jsonApiContent(ref(`rotate_${T}`)) },
        responses: {
          '200': { description: 'The key with its new token, shown once', ...jsonApiContent(ref(`issued_${T}`)) },
          ...errorResponses(400, 401, 403, 404, 412, 415, 422, 429),
        },
      },
    },
  },
};
