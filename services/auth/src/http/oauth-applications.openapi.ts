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
import { createOAuthApplicationSchema, OAUTH_APPLICATION_TYPE, updateOAuthApplicationSchema } from '../domain/oauth-application.schemas.js';

const T = OAUTH_APPLICATION_TYPE;
const id = pathParameter('id', 'The application id (UUID).');
const tags = ['oauth_applications'];
const ADMIN = 'Team admins only, with a credential limited by neither records nor groups (OAuth: `all` or `ir.all`).';

// As toOAuthApplicationResource writes them; the secret is never part of them.
const attributes: Record<string, Json> = {
  name: schema.string(),
  description: schema.nullable('string'),
  client_id: schema.string('The OAuth client id to request tokens with.'),
  scopes: schema.array({ type: 'string' }),
  grant_types: schema.array({ type: 'string', enum: ['client_credentials'] }),
  token_endpoint_auth_methods: schema.array({ type: 'string', enum: ['client_secret_basic', 'client_secret_post'] }),
  service_user_id: { type: 'integer', description: 'The service account the application acts as.' },
  created_by_user_id: schema.nullable('integer'),
  created_at: schema.dateTime(),
  updated_at: schema.dateTime(),
};

const one = (description: string) => ({ description, ...jsonApiContent(ref(`${T}_response`)) });
const update = (method: string) => ({
  operationId: `${method === 'put' ? 'update' : 'patch'}_${T}`,
  summary: 'Update an OAuth application',
  description: `${ADMIN} Name and description only.`,
  tags,
  security: BEARER,
  parameters: [id, IF_MATCH],
  requestBody: { required: true, ...jsonApiContent(ref(`update_${T}`)) },
  responses: { '200': taggedResponse(one('The updated application')), ...errorResponses(400, 401, 403, 404, 412, 415, 422, 429) },
});

/** `/v1/oauth_applications`: client-credentials applications, as oauth-applications.routes.ts serves them. */
export const oauthApplicationsOpenApi: OpenApiPart = {
  schemas: {
    ...resourceSchemas(T, attributes),
    [`issued_${T}`]: issuedResourceSchema(T, 'client_secret', 'Shown this once; only its hash is stored.'),
    [`new_${T}`]: requestDocumentSchema(T, fromZod(createOAuthApplicationSchema), { withId: false }),
    [`update_${T}`]: requestDocumentSchema(T, fromZod(updateOAuthApplicationSchema), { withId: true }),
  },
  paths: {
    '/v1/oauth_applications': {
      get: {
        operationId: `list_${T}`,
        summary: 'List OAuth applications',
        description: ADMIN,
        tags,
        security: BEARER,
        parameters: listParameters({ page: { maxSize: 100 }, cursor: true }),
        responses: {
          '200': { description: 'A page of applications', ...jsonApiContent(ref(`${T}_list`)) },
          ...errorResponses(400, 401, 403, 429),
        },
      },
      post: {
        operationId: `create_${T}`,
        summary: 'Create an OAuth application',
        description: `${ADMIN} The answer carries the client secret, once.`,
        tags,
        security: BEARER,
        requestBody: { required: true, ...jsonApiContent(ref(`new_${T}`)) },
        responses: {
          '201': { description: 'Created; `Location` names the new application', ...jsonApiContent(ref(`issued_${T}`)) },
          ...errorResponses(400, 401, 403, 415, 422, 429),
        },
      },
    },
    '/v1/oauth_applications/{id}': {
      get: {
        operationId: `get_${T}`,
        summary: 'Get an OAuth application',
        description: ADMIN,
        tags,
        security: BEARER,
        parameters: [id, IF_NONE_MATCH],
        responses: { '200': taggedResponse(one('The application')), ...NOT_MODIFIED, ...errorResponses(400, 401, 403, 404, 429) },
      },
      put: update('put'),
      patch: update('patch'),
      delete: {
        operationId: `delete_${T}`,
        summary: 'Revoke an OAuth application',
        description: `${ADMIN} Its tokens stop working.`,
        tags,
        security: BEARER,
        parameters: [id, IF_MATCH],
        responses: { '200': one('The revoked application'), ...errorResponses(400, 401, 403, 404, 412, 429) },
      },
    },
  },
};
