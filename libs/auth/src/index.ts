export * from './principal.js';
export { createInternalTokens, type InternalTokens, PRINCIPAL_HEADER } from './internal-token.js';
export { authorize, type Permission } from './authorize.js';
export { principalMiddleware, getPrincipal } from './principal.middleware.js';
export { expandScopes, GRANULAR_SCOPES, META_SCOPES, IR_RESOURCES, OC_RESOURCES } from './scopes.js';
