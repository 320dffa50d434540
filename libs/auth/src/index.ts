export * from './principal.js';
export {
  createPrincipalSigner,
  createPrincipalVerifier,
  PRINCIPAL_HEADER,
  type IngestionPrincipal,
  type PrincipalSigner,
  type PrincipalTarget,
  type PrincipalVerifier,
} from './principal-token.js';
export { createSystemTokens, type SystemTokens } from './system-token.js';
export { ACTION_TOKEN_HEADER, SOURCE_SECRET_HEADER } from './action-token.js';
export { generatePrincipalKeys } from './principal-keys.js';
export { authorize, describePermission, type Permission } from './authorize.js';
export { principalMiddleware, getPrincipal } from './principal.middleware.js';
export { expandScopes, GRANULAR_SCOPES, META_SCOPES, IR_RESOURCES, OC_RESOURCES } from './scopes.js';
export { legacyGroupId } from './legacy-group-id.js';
