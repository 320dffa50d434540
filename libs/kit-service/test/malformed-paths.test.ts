import { createPrincipalVerifier, PRINCIPAL_HEADER } from '@firewatch/auth';
import { createServiceApp } from '@firewatch/http';
import { createLogger } from '@firewatch/logger';
import { mountRoutes, type RouteEntry } from '@firewatch/resource-kit';
import { listen, signAsGateway, TEST_PRINCIPAL_KEYS, testPrincipal } from '@firewatch/testing';

// Express's router decodes a route's parameters when it matches the route's path, before
// it looks at the route's methods: a malformed percent-encoding under any route's
// parameter is a 400, whatever the method of the route or of the request.
describe('malformed paths under the kit routes', () => {
  it('answers 400 malformed_path when a route of another method has a parameter there', async () => {
    const answer: RouteEntry['handler'] = async (_req, res) => void res.status(200).end();
    const app = createServiceApp({
      logger: createLogger({ service: 'malformed-paths-test', level: 'silent' }),
      principals: createPrincipalVerifier({ publicKeys: TEST_PRINCIPAL_KEYS.publicKeys, audience: 'malformed-paths-test' }),
      routers: [
        mountRoutes([
          { phase: 1, method: 'get', path: '/v1/things/:id', handler: answer },
          { phase: 2, method: 'post', path: '/v1/things/:id/ping', handler: answer },
        ]),
      ],
    });
    const server = await listen(app);
    try {
      for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
        const path = '/v1/things/%zz';
        const headers = { [PRINCIPAL_HEADER]: await signAsGateway(testPrincipal(), 'malformed-paths-test', method, path) };
        const res = await fetch(`${server.url}${path}`, { method, headers });
        const body = (await res.json()) as { errors: { code: string }[] };
        expect({ method, status: res.status, code: body.errors[0]?.code }).toEqual({ method, status: 400, code: 'malformed_path' });
      }
    } finally {
      await server.close();
    }
  });
});
