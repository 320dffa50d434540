import { ROLES } from '@firewatch/auth';
import {
  BEARER,
  errorResponses,
  fromZod,
  IF_MATCH,
  IF_NONE_MATCH,
  includeParameter,
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
import { updateUserAttributesSchema } from '../domain/users.schemas.js';
import { USER_INCLUDES } from '../domain/user-includes.js';
import { USER_LIST_SPEC } from './users.routes.js';

const T = 'users';
const tags = ['users'];
const id = pathParameter('id', 'The user id (an integer).');
const READ =
  'Any credential of the team that holds the `read` capability, OAuth tokens whatever their scopes (no granular scope names users).';
const INCLUDES =
  "`include=teams` adds the groups the users are members of, as `/v1/teams` answers them (403 without its permission, `ir.groups` for OAuth tokens); the other values are accepted and add nothing: contact methods, notification rules and schedules are on-call's, roles are names, no devices are kept.";
const ADMIN = 'Team admins only, with a credential limited by neither records nor groups (OAuth: `all` or `ir.all`).';

// As toUserResource writes them; the password hash never appears.
const attributes: Record<string, Json> = {
  email: { type: 'string', format: 'email' },
  first_name: schema.nullable('string'),
  last_name: schema.nullable('string'),
  full_name: schema.string('First and last name joined.'),
  full_name_with_team: schema.string('The full name and the team (tenant) the user belongs to: "Jane Doe (Acme)".'),
  name: schema.string('The full name again (the userinfo claim of that name).'),
  time_zone: schema.string('An IANA time zone name; Etc/UTC until one is chosen.'),
  role: schema.enum(ROLES),
  on_call_role: schema.enum(ROLES),
  team_id: { type: 'integer' },
  is_service_account: { type: 'boolean', description: 'True for the user an OAuth application acts as.' },
  created_at: schema.dateTime(),
  updated_at: schema.dateTime(),
};

const one = (description: string) => ({ description, ...jsonApiContent(ref(`${T}_response`)) });

/** `/v1/users`, `/v1/users/{id}` and `/v1/users/me`, as users.routes.ts serves them. */
export const usersOpenApi: OpenApiPart = {
  schemas: {
    ...resourceSchemas(T, attributes),
    [`update_${T}`]: requestDocumentSchema(T, fromZod(updateUserAttributesSchema), { withId: true }),
  },
  paths: {
    '/v1/users': {
      get: {
        operationId: `list_${T}`,
        summary: "List the team's users",
        description: `${READ} \`filter[name]\` and \`filter[search]\` match a case-insensitive part of the first, last or full name (search: or the email); \`filter[email]\` is the whole address, in any case. ${INCLUDES}`,
        tags,
        security: BEARER,
        parameters: listParameters({ ...USER_LIST_SPEC, cursor: true }),
        responses: {
          '200': { description: 'A page of users', ...jsonApiContent(ref(`${T}_list`)) },
          ...errorResponses(400, 401, 403, 429),
        },
      },
    },
    '/v1/users/me': {
      get: {
        operationId: 'get_current_user',
        summary: "Get the caller's own user",
        description: 'Any credential that acts for a user (personal keys, OAuth tokens); a team-wide key gets 404 `no_user`.',
        tags,
        security: BEARER,
        parameters: [IF_NONE_MATCH],
        responses: {
          '200': taggedResponse(one('The user')),
          ...NOT_MODIFIED,
          ...errorResponses(400, 401, 404, 429),
        },
      },
    },
    '/v1/users/{id}': {
      get: {
        operationId: `get_${T}`,
        summary: 'Get a user',
        description: `${READ} Another team's user is a 404. ${INCLUDES}`,
        tags,
        security: BEARER,
        parameters: [id, includeParameter(USER_INCLUDES), IF_NONE_MATCH],
        responses: { '200': taggedResponse(one('The user')), ...NOT_MODIFIED, ...errorResponses(400, 401, 403, 404, 429) },
      },
      put: {
        operationId: `update_${T}`,
        summary: 'Update a user',
        description: `${ADMIN} Or the user themselves (a personal key or OAuth token of theirs; OAuth: \`all\` or \`ir.all\`), who may change only their own \`first_name\`, \`last_name\` and \`time_zone\` (403 otherwise). An admin changes an \`on_call_role\` only within their own on-call role (OAuth: also \`all\` or \`oc.all\`), and raises a role only with a credential that has every capability and does not expire (403 otherwise). Taking the admin role from the team's last admin is a 422 \`last_admin\`; an OAuth application's service user takes its email and roles from the application (422 \`service_account\`).`,
        tags,
        security: BEARER,
        parameters: [id, IF_MATCH],
        requestBody: { required: true, ...jsonApiContent(ref(`update_${T}`)) },
        responses: { '200': taggedResponse(one('The updated user')), ...errorResponses(400, 401, 403, 404, 409, 412, 415, 422, 429) },
      },
      delete: {
        operationId: `delete_${T}`,
        summary: 'Delete a user',
        description: `${ADMIN} Revokes the user's personal API keys and OAuth sessions, grants and tokens at once. Deleting yourself is a 422 \`self_deletion\`, the team's last admin a 422 \`last_admin\`; a live OAuth application's service user is a 409 (revoke the application).`,
        tags,
        security: BEARER,
        parameters: [id, IF_MATCH],
        responses: { '200': one('The deleted user'), ...errorResponses(400, 401, 403, 404, 409, 412, 422, 429) },
      },
    },
  },
};
