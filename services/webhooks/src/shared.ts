/**
 * What the webhook dispatcher shares with the webhooks service (one bounded context,
 * one database): the schema, the delivery rules and the signing.
 */
export { migrations } from '../migrations/index.js';
export { DELIVERIES, ATTEMPTS } from './data/deliveries.repository.js';
export { requireSecretKeys } from './config.js';
export { signPayload, webhookHeaders, webhookSigningKey } from './domain/deliveries/signature.js';
export { generateSecret } from './domain/endpoints/webhook-secret.js';
export { deliveryPayload, subscribes } from './domain/deliveries/event-types.js';
export { type CustomHeader } from './domain/endpoints/custom-headers.js';
export { openHeaderValues, sealPlainHeaderValues, type StoredCustomHeader } from './domain/endpoints/custom-header-values.js';
export { createPlainHeaderValuesStore } from './data/plain-header-values.store.js';
export { webhooksEndpoints } from './domain/endpoints/webhooks-endpoints.resource.js';
export { endpointEventData } from './domain/endpoints/endpoint-events.js';
