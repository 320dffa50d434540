import { assembleDocument, type OpenApiDocument } from '@firewatch/openapi';
import { resourceOpenApi } from '@firewatch/resource-kit';
import { dashboards, dashboardsIncluding } from '../domain/resources/dashboards.resource.js';
import { resources } from '../domain/resources/index.js';

// app.ts wires dashboards' include=panels to a loader over the database; a document needs only the include's name.
const servedByTheApp = async (): Promise<never> => { throw new Error('include loaders run in the app (app.ts)'); };
const documented = resources.map((d) => (d === dashboards ? dashboardsIncluding(servedByTheApp) : d));

/** The incident-config service's API: every kit-built resource it serves. */
export function incidentConfigOpenApiDocument(): OpenApiDocument {
  return assembleDocument({ title: 'Firewatch incident-config', version: '1.0.0' }, documented.map((definition) => resourceOpenApi(definition)));
}
