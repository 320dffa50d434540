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
  handle?: { stack?: Layer[]; routers?: readonly { stack: Layer[] }[] };
}

const join = (prefix: string, path: string) => (path === '/' ? prefix || '/' : `${prefix}${path}`);

function walk(stack: Layer[], prefix: string, into: MountedRoute[]): void {
  for (const layer of stack) {
    if (layer.route) {
      if (typeof layer.route.path !== 'string') throw new Error(`a route at ${prefix} is not a string path; teach this walk about it`);
      const path = join(prefix, layer.route.path).replace(/:(\w+)/g, '{$1}');
      for (const [method, on] of Object.entries(layer.route.methods)) if (on && method !== '_all') into.push({ method, path });
    } else if (layer.handle?.routers) {
      // The resource kit's dispatch by first path segment (mountRoutes): a route whose first
      // segment is a parameter sits in each of its routers, and is one route.
      const found: MountedRoute[] = [];
      for (const router of layer.handle.routers) walk(router.stack, prefix, found);
      const seen = new Set<string>();
      for (const r of found) {
        const key = `${r.method} ${r.path}`;
        if (/^\/v1\/\{/.test(r.path) && seen.has(key)) continue;
        seen.add(key);
        into.push(r);
      }
    } else if (layer.handle?.stack) {
      const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
      walk(layer.handle.stack, prefix + mount, into);
    }
  }
}

/**
 * Every route an express 5 app serves, found by walking its router stack (routes,
 * routers mounted at a path, and the routers the resource kit's dispatch chooses from), so a test can compare what is mounted with what is documented.
 */
export function mountedRoutes(app: Express): MountedRoute[] {
  const routes: MountedRoute[] = [];
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '', routes);
  return routes;
}
