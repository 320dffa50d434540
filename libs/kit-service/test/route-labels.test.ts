import { createPrincipalVerifier, PRINCIPAL_HEADER } from '@firewatch/auth';
import { createServiceApp } from '@firewatch/http';
import { createLogger } from '@firewatch/logger';
import { createMetrics, readSample } from '@firewatch/metrics';
import { mountRoutes, type RouteEntry } from '@firewatch/resource-kit';
import { listen, signAsGateway, TEST_PRINCIPAL_KEYS, testPrincipal } from '@firewatch/testing';

// The route label of a request is the template of the last route express matched. For
// HEAD, express's router matches a route by its path whatever its methods (then skips
// it if it has no GET): a HEAD on an action's path is a 404 labelled with that action.
describe('route labels of the kit routes', () => {
  it('labels HEAD as one router holding every route did', async () => {
    const metrics = createMetrics({ service: 'route-labels-test', defaultMetrics: false });
    const answer =
      (status: number): RouteEntry['handler'] =>
      async (_req, res) =>
        void res.status(status).end();
    const app = createServiceApp({
      logger: createLogger({ service: 'route-labels-test', level: 'silent' }),
      principals: createPrincipalVerifier({ publicKeys: TEST_PRINCIPAL_KEYS.publicKeys, audience: 'route-labels-test' }),
      routers: [
        mountRoutes([
          { phase: 1, method: 'get', path: '/v1/things/:id', handler: answer(200) },
          { phase: 2, method: 'post', path: '/v1/things/:id/ping', handler: answer(204) },
        ]),
      ],
      metrics,
    });
    const server = await listen(app);
    try {
      for (const [method, path, status] of [
        ['HEAD', '/v1/things/a', 200],
        ['HEAD', '/v1/things/a/ping', 404],
        ['GET', '/v1/things/a/ping', 404],
      ] as const) {
        const headers = { [PRINCIPAL_HEADER]: await signAsGateway(testPrincipal(), 'route-labels-test', method, path) };
        expect({ method, path, status: (await fetch(`${server.url}${path}`, { method, headers })).status }).toEqual({
          method,
          path,
          status,
        });
      }
      const text = (await metrics.scrape()).body;
      const count = (method: string, route: string, status: string) =>
        readSample(text, 'firewatch_http_requests_total', { method, route, status });
      expect(count('HEAD', '/v1/things/:id', '200')).toBe(1);
      expect(count('HEAD', '/v1/things/:id/ping', '404')).toBe(1);
      expect(count('GET', 'unmatched', '404')).toBe(1);
    } finally {
      await server.close();
    }
  });
});
