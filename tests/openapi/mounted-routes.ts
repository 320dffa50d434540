import type { Express } from 'express';

/** One route an express app serves. */
export interface MountedRoute {
  method: string;
  /** In OpenAPI's notation: `/v1/api_keys/{id}`. */
  path: string;
}

interface Layer {
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: Layer[]; routeTable?: readonly { method: string; path: string }[] };
}

const join = (prefix: string, path: string) => (path === '/' ? prefix || '/' : `${prefix}${path}`);

function walk(stack: Layer[], prefix: string, into: MountedRoute[]): void {
  for (const layer of stack) {
    if (layer.route) {
      if (typeof layer.route.path !== 'string') throw new Error(`a route at ${prefix} is not a string path; teach this walk about it`);
      const path = join(prefix, layer.route.path).replace(/:(\w+)/g, '{$1}');
      for (const [method, on] of Object.entries(layer.route.methods)) if (on && method !== '_all') into.push({ method, path });
    } else if (layer.handle?.routeTable) {
      // The resource kit's dispatch by first path segment (mountRoutes) lists what it serves.
      for (const { method, path } of layer.handle.routeTable) into.push({ method, path: join(prefix, path).replace(/:(\w+)/g, '{$1}') });
    } else if (layer.handle?.stack) {
      const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
      walk(layer.handle.stack, prefix + mount, into);
    }
  }
}

/**
 * Every route an express 5 app serves, found by walking its router stack (routes,
 * routers mounted at a path, and the resource kit's route table), so a test can compare what is mounted with what is documented.
 */
export function mountedRoutes(app: Express): MountedRoute[] {
  const routes: MountedRoute[] = [];
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '', routes);
  return routes;
}
