export * from './document.js';
export { MAX_BODY_DEPTH, MEDIA_TYPE, mediaTypeMiddleware, jsonApiBody, sendDocument, sendSecretDocument } from './media-type.js';
export { assertIfMatch, entityTag, ifMatchOf, sendTaggedDocument, type EntityTagCondition } from './conditional.js';
export { pageNumbers, pageOfList, parsePage, paginationLinks, type Page, type PageFound, type PageOptions } from './pagination.js';
export { decodeCursor, encodeCursor, invalidCursor, type CursorValues } from './cursor.js';
export {
  parseListQuery,
  assertOnlyParams,
  type ListQuery,
  type ListQuerySpec,
  type FilterKind,
  type FilterCondition,
  type SortField,
} from './list-query.js';
export { assertDocumentId, parseRequestDocument, zodIssuesToValidation } from './request-document.js';
