import { Ajv2019, type ErrorObject, type ValidateFunction } from 'ajv/dist/2019.js';
import addFormatsModule from 'ajv-formats';
import { convertOpenApi30 } from './openapi30-schema.converter.js';
import { applyDeviations } from './deviation-applier.js';
import { REFERENCE_DEVIATIONS, type SchemaDeviation } from './reference-deviations.js';
import { loadReferenceDocument, type JsonObject } from './reference-document.js';
import { specShapeKey, specShapeSchema, type SpecShape } from './spec-shapes.js';

// ajv-formats is CommonJS: imported from ESM, its plugin is the module's `default` member.
const addFormats = addFormatsModule.default;

const COMPONENTS_ID = 'https://firewatch.invalid/reference-components.json';

/**
 * What a response body is checked against: the response a reference operation declares;
 * a reference component schema by name, where the operation declares no body but its
 * siblings show what it answers (cite why); or a specification shape.
 */
export type SchemaTarget = { reference: string; status: number } | { component: string; cite: string } | SpecShape;

export interface ReferenceValidator {
  /** Problems with `body`, one readable line each; empty when it conforms. */
  validate(target: SchemaTarget, body: unknown): string[];
  /** The reference operation's method and path, to check a table row against it. */
  operation(operationId: string): { method: string; path: string };
}

/**
 * Builds the validator: loads the reference once, converts it to JSON Schema, applies the
 * deviations, and compiles each response schema on first use. Draft 2019-09 for
 * `unevaluatedProperties` (closed attributes across the reference's `allOf`s); strict
 * mode, so a schema keyword ajv does not know is an error rather than ignored; every
 * error reported, not the first, with the offending value; formats (uuid, date-time,
 * uri) checked.
 */
export function createReferenceValidator(
  options: { file?: string; deviations?: Readonly<Record<string, readonly SchemaDeviation[]>> } = {},
): ReferenceValidator {
  const reference = loadReferenceDocument(options.file);
  const components = convertOpenApi30(reference.document.components.schemas, COMPONENTS_ID) as JsonObject;
  applyDeviations(components, options.deviations ?? REFERENCE_DEVIATIONS);

  const ajv = new Ajv2019({ strict: true, allErrors: true, allowUnionTypes: true, verbose: true });
  addFormats(ajv);
  // OpenAPI's annotation keyword: harmless, but strict mode refuses keywords it does not know.
  ajv.addKeyword({ keyword: 'example', schemaType: ['string', 'number', 'boolean', 'object', 'array', 'null'] });
  ajv.addSchema({ $id: COMPONENTS_ID, $defs: components });

  const schemaOf = (target: SchemaTarget): JsonObject => {
    if ('reference' in target)
      return convertOpenApi30(reference.responseSchema(target.reference, target.status), COMPONENTS_ID) as JsonObject;
    if ('spec' in target) return specShapeSchema(target, COMPONENTS_ID);
    if (!(target.component in components)) throw new Error(`the reference has no component schema ${target.component}`);
    return { $ref: `${COMPONENTS_ID}#/$defs/${target.component}` };
  };
  const compiled = new Map<string, ValidateFunction>();
  const validatorFor = (target: SchemaTarget): ValidateFunction => {
    const key =
      'reference' in target
        ? `${target.reference} ${target.status}`
        : 'component' in target
          ? `component:${target.component}`
          : specShapeKey(target);
    let fn = compiled.get(key);
    if (!fn) {
      fn = ajv.compile(schemaOf(target));
      compiled.set(key, fn);
    }
    return fn;
  };

  return {
    validate(target, body) {
      // JSON Schema judges values, and an empty body is none.
      if ('spec' in target && target.spec === 'empty')
        return body === undefined ? [] : [`(body): must be empty (got ${JSON.stringify(body)})`];
      const fn = validatorFor(target);
      return fn(body) ? [] : (fn.errors ?? []).map(describe);
    },
    operation: (operationId) => reference.operation(operationId),
  };
}

/** `/data/attributes/color: must be string,null (got 7)`, and the like. */
function describe(error: ErrorObject): string {
  const where = error.instancePath || '(body)';
  const p = error.params as Record<string, unknown>;
  const extra = p.unevaluatedProperty ?? p.additionalProperty;
  if (extra !== undefined) return `${where}: has ${String(extra)}, which the reference lacks and no deviation declares`;
  if (p.missingProperty !== undefined) return `${where}: lacks required ${String(p.missingProperty)}`;
  const got = `(got ${JSON.stringify(error.data)?.slice(0, 80)})`;
  if (Array.isArray(p.allowedValues)) return `${where}: must be one of ${JSON.stringify(p.allowedValues)} ${got}`;
  return `${where}: ${error.message ?? error.keyword} ${got}`;
}
