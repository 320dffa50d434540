import { assembleDocument, type OpenApiDocument } from '@firewatch/openapi';
import { resourceOpenApi, type AnyResourceDefinition } from '@firewatch/resource-kit';
import { overrideShifts } from '../domain/resources/override-shifts.resource.js';
import { resources } from '../domain/resources/index.js';

type Part = ReturnType<typeof resourceOpenApi>;

/**
 * Override shifts and computed shifts (GET /v1/shifts) are both JSON:API `shifts`, as in
 * the reference, and the kit names a declaration's component schemas and operationIds
 * after its type: the override shifts' part takes `override_shifts` names instead
 * (`override_shifts_response`, `get_override_shifts`, ...), so the two stay apart.
 */
function overrideShiftsPart(part: Part): Part {
  const renamed = (name: string) => name.replace(/(^|_)shifts(?=_|$)/, '$1override_shifts');
  let text = JSON.stringify(part);
  for (const name of Object.keys(part.schemas ?? {})) text = text.replaceAll(`"#/components/schemas/${name}"`, `"#/components/schemas/${renamed(name)}"`);
  const out = JSON.parse(text) as Part;
  out.schemas = Object.fromEntries(Object.entries(out.schemas ?? {}).map(([name, schema]) => [renamed(name), schema]));
  for (const item of Object.values(out.paths) as Record<string, { operationId?: string }>[]) {
    for (const op of Object.values(item)) if (op.operationId) op.operationId = op.operationId.replace(/_shifts$/, '_override_shifts');
  }
  return out;
}

const partOf = (definition: AnyResourceDefinition): Part =>
  (definition === overrideShifts ? overrideShiftsPart(resourceOpenApi(definition)) : resourceOpenApi(definition));

/** The on-call service's API: every kit-built resource it serves. */
export function onCallOpenApiDocument(): OpenApiDocument {
  return assembleDocument({ title: 'Firewatch on-call', version: '1.0.0' }, resources.map(partOf));
}
