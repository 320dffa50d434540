export { HTTP_METHODS, type Json, type OpenApiDocument, type OpenApiPart, type PathItem } from './openapi.types.js';
export { BEARER, COMMON_SCHEMAS, JSON_API, SECURITY_SCHEMES, errorResponses, jsonApiContent, ref } from './components.js';
export {
  fromZod,
  issuedResourceSchema,
  requestDocumentSchema,
  resourceSchemas,
  schema,
  type ResourceSchemaOptions,
} from './resource-schemas.js';
export { IF_MATCH, IF_NONE_MATCH, NOT_MODIFIED, taggedResponse } from './conditional.js';
export { includeParameter, listParameters, pathParameter, type ListParametersSpec } from './parameters.js';
export { collectionTag, listOperations, type OperationEntry } from './operations.js';
export { assembleDocument, type DocumentInfo } from './assemble-document.js';
export { mergeDocuments, type MergeResult, type MergeSource } from './merge-documents.js';
