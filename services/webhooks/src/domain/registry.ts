import { createResourceRegistry } from '@firewatch/resource-kit';
import { webhooksEndpoints } from './endpoints/webhooks-endpoints.resource.js';
import type { WebhooksResourceDeps } from './webhooks.deps.js';

/** The webhooks service's kit declarations, by name; deliveries and event types are hand-written routers. */
export const registry = createResourceRegistry<WebhooksResourceDeps>([webhooksEndpoints]);
