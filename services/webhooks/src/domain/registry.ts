import { createResourceRegistry } from '@firewatch/resource-kit';
import { webhooksEndpoints, type EndpointsDeps } from './endpoints/webhooks-endpoints.resource.js';

/** The webhooks service's kit declarations, by name; deliveries and event types are hand-written routers. */
export const registry = createResourceRegistry<EndpointsDeps>([webhooksEndpoints]);
