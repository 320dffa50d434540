/** A JSON object, as OpenAPI documents are made of. */
export type Json = Record<string, unknown>;

/** One operation's path item: `get`, `post`, ... each an Operation Object. */
export type PathItem = Record<string, Json>;

/** An OpenAPI 3.1 document as Firewatch builds, merges and serves it. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: Json[];
  security?: Json[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, PathItem>;
  components: { schemas: Json; securitySchemes: Json };
  [extension: `x-${string}`]: unknown;
}

/**
 * What one router or one kit resource contributes to its service's document: its paths
 * and the component schemas they reference (the shape of the kit's `resourceOpenApi`).
 */
export interface OpenApiPart {
  paths: Json;
  schemas: Json;
}

/** The HTTP methods an OpenAPI Path Item may carry; other keys (`parameters`, `summary`) are not operations. */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
