import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { listOperations, type OpenApiDocument } from '@firewatch/openapi';
import { openApiDocument } from '../openapi/openapi-document.js';
import { ensureChromium, launchChromium, type LaunchedBrowser } from '../support/oauth-chromium.js';
import { api, type RunningSystem, startSystem } from '../support/system.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';

// ajv-formats is CommonJS; under ESM its function is the default export's default.
// ajv-formats is CommonJS: imported from ESM, its plugin is the module's `default` member.
const addFormats = addFormatsModule.default;

let system: RunningSystem;
let served: OpenApiDocument;

beforeAll(async () => {
  system = await startSystem({ webhooks: true });
  const res = await fetch(`${system.gatewayUrl}/openapi.json`);
  expect(res.status).toBe(200);
  served = (await res.json()) as OpenApiDocument;
}, 120_000);
afterAll(async () => {
  await system?.stop();
});

const operations = (doc: OpenApiDocument) =>
  listOperations(doc)
    .map((o) => `${o.method.toUpperCase()} ${o.path}`)
    .sort();

describe('GET $GATEWAY/openapi.json', () => {
  it('needs no credential and lists every route of every running service, exactly as docs/openapi.json', () => {
    expect(served).not.toHaveProperty('x-firewatch-missing');
    expect(operations(served)).toEqual(operations(openApiDocument()));
    expect(operations(served)).toEqual(
      expect.arrayContaining([
        'GET /v1/users/me',
        'POST /v1/api_keys/{id}/rotate',
        'DELETE /v1/oauth_applications/{id}',
        'GET /v1/webhooks/event_types',
        'GET /v1/webhooks/endpoints/{endpoint_id}/deliveries',
        'POST /v1/webhooks/deliveries/{id}/deliver',
        'PATCH /v1/environments/{id}',
      ]),
    );
    expect(served).toEqual(
      JSON.parse(fs.readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/openapi.json'), 'utf8')),
    );
  });
});

describe('the documented schemas against real answers of the hand-written routes', () => {
  let validate: (schema: string, body: unknown) => unknown[];
  let token: string;
  let personal: string;

  beforeAll(async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'https://firewatch.invalid/openapi.json', components: served.components });
    validate = (schema, body) => {
      const check = ajv.getSchema(`https://firewatch.invalid/openapi.json#/components/schemas/${schema}`)!;
      return check(body) ? [] : (check.errors ?? []);
    };
    const boot = await system.cli('bootstrap', '--team-name', 'Docs', '--email', 'admin@docs.test');
    const key = (...extra: string[]) =>
      system.cli(
        'api-keys',
        'create',
        '--team-id',
        String(boot.team.id),
        '--name',
        `k${extra.length}`,
        '--rate-limit-read',
        '10000',
        '--rate-limit-write',
        '10000',
        ...extra,
      );
    token = (await key('--role', 'admin')).token;
    // A personal key acts as its user, with the user's role.
    personal = (await key('--kind', 'personal', '--user-id', String(boot.user.id))).token;
  }, 60_000);

  const gw = (method: string, p: string, body?: unknown, as = token) => api(system.gatewayUrl, method, p, { token: as, body });

  it('API keys, OAuth applications and the current user', async () => {
    // The check can fail: a key without its attributes is not an api_keys_response.
    expect(validate('api_keys_response', { data: { id: 'x', type: 'api_keys', attributes: { name: 'n' } } })).not.toEqual([]);
    const created = await gw('POST', '/v1/api_keys', {
      data: {
        type: 'api_keys',
        attributes: { name: 'ci', kind: 'global', role: 'user', expires_at: new Date(Date.now() + 86_400_000).toISOString() },
      },
    });
    expect([created.status, created.body.errors]).toEqual([201, undefined]);
    expect(validate('issued_api_keys', created.body)).toEqual([]);
    const id = created.body.data.id;
    expect(validate('api_keys_list', (await gw('GET', '/v1/api_keys?filter[kind]=global')).body)).toEqual([]);
    expect(
      validate(
        'api_keys_response',
        (await gw('PUT', `/v1/api_keys/${id}`, { data: { type: 'api_keys', id, attributes: { description: 'x' } } })).body,
      ),
    ).toEqual([]);
    expect(validate('issued_api_keys', (await gw('POST', `/v1/api_keys/${id}/rotate`)).body)).toEqual([]);
    expect(validate('api_keys_response', (await gw('DELETE', `/v1/api_keys/${id}`)).body)).toEqual([]);

    const app = await gw('POST', '/v1/oauth_applications', {
      data: { type: 'oauth_applications', attributes: { name: 'etl', scopes: ['ir.environments:read'] } },
    });
    expect(app.status).toBe(201);
    expect(validate('issued_oauth_applications', app.body)).toEqual([]);
    expect(validate('oauth_applications_list', (await gw('GET', '/v1/oauth_applications')).body)).toEqual([]);
    expect(
      validate(
        'oauth_applications_response',
        (
          await gw('PATCH', `/v1/oauth_applications/${app.body.data.id}`, {
            data: { type: 'oauth_applications', attributes: { name: 'etl2' } },
          })
        ).body,
      ),
    ).toEqual([]);

    const me = await gw('GET', '/v1/users/me', undefined, personal);
    expect(me.status).toBe(200);
    expect(validate('users_response', me.body)).toEqual([]);
    const teamWide = await gw('GET', '/v1/users/me');
    expect(teamWide.status).toBe(404);
    expect(validate('errors_list', teamWide.body)).toEqual([]);
    const anonymous = await api(system.gatewayUrl, 'GET', '/v1/users/me');
    expect(anonymous.status).toBe(401);
    expect(validate('errors_list', anonymous.body)).toEqual([]);
  });

  it('webhook event types, deliveries, attempts and deliver', async () => {
    const rx = await startWebhookReceiver();
    try {
      expect(validate('webhooks_event_types_list', (await gw('GET', '/v1/webhooks/event_types')).body)).toEqual([]);
      const endpoint = await gw('POST', '/v1/webhooks/endpoints', {
        data: { type: 'webhooks_endpoints', attributes: { name: 'Docs hook', url: rx.url, event_types: ['environment.created'] } },
      });
      expect(endpoint.status).toBe(201);
      await gw('POST', '/v1/environments', { data: { type: 'environments', attributes: { name: 'Docs' } } });
      await rx.waitFor((ds) => ds.length >= 1);

      const list = await gw('GET', `/v1/webhooks/endpoints/${endpoint.body.data.id}/deliveries?include=attempts`);
      expect(list.body.data).toHaveLength(1);
      expect(validate('webhooks_deliveries_list', list.body)).toEqual([]);
      const id = list.body.data[0].id;
      expect(validate('webhooks_deliveries_response', (await gw('GET', `/v1/webhooks/deliveries/${id}?include=attempts`)).body)).toEqual(
        [],
      );
      expect(validate('webhooks_delivery_attempts_list', (await gw('GET', `/v1/webhooks/deliveries/${id}/attempts`)).body)).toEqual([]);
      expect(validate('webhooks_deliveries_response', (await gw('POST', `/v1/webhooks/deliveries/${id}/deliver`)).body)).toEqual([]);
    } finally {
      await rx.close();
    }
  });
});

describe('GET $GATEWAY/docs in headless Chromium', () => {
  let chrome: LaunchedBrowser;
  beforeAll(async () => {
    await ensureChromium();
    chrome = await launchChromium();
  }, 20 * 60_000);
  afterAll(async () => {
    await chrome?.close();
  });

  it('renders every operation with the local Swagger UI, loading nothing from elsewhere and breaking no CSP rule', async () => {
    const page = await chrome.browser.newPage();
    const problems: string[] = [];
    const foreign: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(msg.text());
    });
    page.on('pageerror', (err) => problems.push(err.message));
    page.on('request', (req) => {
      if (!req.url().startsWith(system.gatewayUrl) && !req.url().startsWith('data:')) foreign.push(req.url());
    });

    await page.goto(`${system.gatewayUrl}/docs`);
    const expected = operations(served);
    // Swagger UI renders a long list virtually (only what is on screen, from 150 entries
    // on), so the page is scrolled through and every operation seen on the way is kept.
    await page.waitForSelector('.opblock', { timeout: 60_000 });
    const seen = new Set<string>();
    const collect = async () => {
      const visible = await page.$$eval('.opblock', (blocks) =>
        blocks.map((b) => {
          const method = b.querySelector('.opblock-summary-method')?.textContent ?? '';
          const p = b.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '';
          return `${method.trim().toUpperCase()} ${p}`;
        }),
      );
      for (const op of visible) seen.add(op);
    };
    for (let step = 0; step < 2_000 && seen.size < expected.length; step++) {
      await collect();
      const atEnd = await page.evaluate(() => {
        window.scrollBy(0, Math.floor(window.innerHeight / 2));
        return window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 1;
      });
      await page.waitForTimeout(atEnd ? 500 : 30);
      if (atEnd) {
        await collect();
        break;
      }
    }
    const rendered = [...seen];

    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'firewatch-docs-')), 'docs.png');
    await page.screenshot({ path: file, fullPage: true });
    console.log(`screenshot of /docs: ${file}`);

    // What the page reported first: a page that failed renders nothing, and says why here.
    expect(problems).toEqual([]);
    expect(rendered.sort()).toEqual(expected);
    expect(await page.textContent('.info .title')).toContain('Firewatch API');
    expect(foreign).toEqual([]);
    expect(fs.statSync(file).size).toBeGreaterThan(10_000);
  }, 120_000);
});
