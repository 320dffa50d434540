import { ROLES } from '@firewatch/auth';
import {
  BEARER,
  errorResponses,
  IF_NONE_MATCH,
  jsonApiContent,
  NOT_MODIFIED,
  ref,
  resourceSchemas,
  schema,
  taggedResponse,
  type Json,
  type OpenApiPart,
} from '@firewatch/openapi';

// As toUserResource writes them.
const attributes: Record<string, Json> = {
  email: { type: 'string', format: 'email' },
  name: schema.string(),
  role: schema.enum(ROLES),
  on_call_role: schema.enum(ROLES),
  team_id: { type: 'integer' },
  is_service_account: { type: 'boolean', description: 'True for the user an OAuth application acts as.' },
  created_at: schema.dateTime(),
  updated_at: schema.dateTime(),
};

const { users_resource, users_response } = resourceSchemas('users', attributes);

/** `GET /v1/users/me`, as users.routes.ts serves it. */
export const usersOpenApi: OpenApiPart = {
  schemas: { users_resource, users_response },
  paths: {
    '/v1/users/me': {
      get: {
        operationId: 'get_current_user',
        summary: "Get the caller's own user",
        description: 'Any credential that acts for a user (personal keys, OAuth tokens); a team-wide key gets 404 `no_user`.',
        tags: ['users'],
        security: BEARER,
        parameters: [IF_NONE_MATCH],
        responses: {
          '200': taggedResponse({ description: 'The user', ...jsonApiContent(ref('users_response')) }),
          ...NOT_MODIFIED,
          ...errorResponses(400, 401, 404, 429),
        },
      },
    },
  },
};
