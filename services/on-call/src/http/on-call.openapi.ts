import { assembleDocument, type Json, type OpenApiDocument } from '@firewatch/openapi';
import { registryOpenApi } from '@firewatch/resource-kit';
import { registry } from '../domain/registry.js';
import { alertsInOpenApi } from './alerts-in.openapi.js';
import { emailVerificationOpenApi } from './email-verification.openapi.js';

const SHIFT_LISTS = ['/v1/shifts', '/v1/schedules/{id}/shifts'];

/**
 * Marks the shifts' `user`, the reference's deprecated name of `assignee` (docs/api-contract.md §7),
 * as deprecated: the relationship, and the include name in the parameter's description.
 */
function deprecateShiftUser(document: OpenApiDocument): OpenApiDocument {
  const schemas = document.components?.schemas as Record<string, Json> | undefined;
  const relationships = (schemas?.shifts_resource?.properties as Record<string, Json> | undefined)?.relationships as Json | undefined;
  const user = (relationships?.properties as Record<string, Json> | undefined)?.user;
  if (user) Object.assign(user, { deprecated: true, description: 'Deprecated: use assignee, the same user.' });
  for (const path of SHIFT_LISTS) {
    const parameters = (document.paths[path]?.get as Json | undefined)?.parameters as Json[] | undefined;
    const include = parameters?.find((p) => p.name === 'include');
    if (include) include.description = `${String(include.description)} \`user\` is deprecated: use \`assignee\`.`;
  }
  return document;
}

/** The on-call service's API: every kit-built resource it serves. */
export function onCallOpenApiDocument(): OpenApiDocument {
  return deprecateShiftUser(
    assembleDocument({ title: 'Firewatch on-call', version: '1.0.0' }, [
      ...registryOpenApi(registry),
      alertsInOpenApi,
      emailVerificationOpenApi,
    ]),
  );
}
