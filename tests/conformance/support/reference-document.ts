import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The reference API's whole OpenAPI 3.0 document. A gzipped copy lives in the repository
 * (tests/conformance/reference/, see its README), so a clean clone checks itself with no
 * file beside it; `REFERENCE_OPENAPI` points elsewhere (plain or .gz). A missing file
 * fails the suite: a silent skip would read as conformance.
 */
const REFERENCE_PATH =
  process.env.REFERENCE_OPENAPI ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../reference/rootly-openapi.json.gz');

export type JsonObject = Record<string, any>;

interface OperationIndexEntry {
  method: string;
  path: string;
  responses: JsonObject;
}

/** Reads the document and indexes its operations by operationId. */
export function loadReferenceDocument(file = REFERENCE_PATH) {
  let document: JsonObject;
  try {
    const bytes = readFileSync(file);
    document = JSON.parse((file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8'));
  } catch (err) {
    throw new Error(`cannot read the reference OpenAPI document at ${file} (set REFERENCE_OPENAPI): ${(err as Error).message}`, {
      cause: err,
    });
  }
  if (!String(document.openapi).startsWith('3.0')) throw new Error(`${file} is OpenAPI ${document.openapi}, not 3.0`);

  const operations = new Map<string, OperationIndexEntry>();
  for (const [p, item] of Object.entries<JsonObject>(document.paths)) {
    for (const [method, op] of Object.entries<JsonObject>(item)) {
      if (op && typeof op === 'object' && typeof op.operationId === 'string') {
        operations.set(op.operationId, { method: method.toUpperCase(), path: p, responses: op.responses ?? {} });
      }
    }
  }

  const find = (operationId: string): OperationIndexEntry => {
    const op = operations.get(operationId);
    if (!op) throw new Error(`the reference has no operation ${operationId}`);
    return op;
  };

  return {
    document,
    /** The operation's method and path, to check a table row names the right one. */
    operation(operationId: string): { method: string; path: string } {
      const { method, path: p } = find(operationId);
      return { method, path: p };
    },
    /**
     * The body schema (OpenAPI 3.0, unconverted) the reference declares for this
     * operation and status; an error names the statuses it does declare.
     */
    responseSchema(operationId: string, status: number): JsonObject {
      const op = find(operationId);
      const response = op.responses[String(status)];
      const declared = Object.keys(op.responses).join(', ');
      if (!response) throw new Error(`${operationId} declares no ${status} response (it declares ${declared})`);
      const content = Object.values<JsonObject>(response.content ?? {})[0];
      if (!content?.schema)
        throw new Error(`${operationId} ${status} declares no body: check against a component instead ({ component, cite })`);
      return content.schema;
    },
  };
}
