import { createResourceRegistry } from '@firewatch/resource-kit';
import type { AuthResourceDeps } from './auth.deps.js';
import { groups } from './groups/groups.resource.js';

/** Auth's resource declarations: what the kit serves beside the hand-written credentials and users. */
export const registry = createResourceRegistry<AuthResourceDeps>([groups]);
