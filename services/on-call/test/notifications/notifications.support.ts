import { randomUUID } from 'node:crypto';
import http, { type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import { ACTION_TOKEN_HEADER } from '@firewatch/auth';
import { startServiceHarness, type ServiceHarness } from '@firewatch/service-testing';
import { migrations } from '../../migrations/index.js';
import { createOnCallApp } from '../../src/app.js';
import { createActionLinkStore } from '../../src/data/alert-action-links.repository.js';
import { createActionLinks, type ActionLinks } from '../../src/domain/notifications/action-links.js';
import type { EmailTransport } from '../../src/domain/notifications/notifier.js';
import type { NotificationRequest } from '../../src/domain/paging/paging.ports.js';
import { seedUsers } from '../support/users.fixture.js';

export interface LinkHarness extends ServiceHarness {
  links: ActionLinks;
  /** Links made as if at `now` (expired ones), kept where the app finds them. */
  linksAt(now: Date): ActionLinks;
  /** The app's own URL, for the HTML pages (the harness's `call` reads JSON only). */
  url: string;
  knex: Knex;
  close(): Promise<void>;
}

/** on-call with signed links whose base URL is the app itself (and `email` when given), and user 11 (team 1) to act as. */
export async function startWithLinks(email?: EmailTransport): Promise<LinkHarness> {
  let app: RequestListener | undefined;
  const server = http.createServer((req, res) => app!(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let links: ActionLinks | undefined;
  const harness = await startServiceHarness({
    audience: 'on-call',
    migrations,
    createApp: (deps) => {
      links = createActionLinks({ store: createActionLinkStore(deps.knex as Knex), baseUrl: url });
      return (app = createOnCallApp({
        ...deps,
        notifications: { links, email, notifier: { send: () => Promise.reject(new Error('unused')) } },
      }));
    },
  });
  const knex = harness.db.knex as Knex;
  await seedUsers(knex, [
    { team_id: 1, user_id: 11, name: 'Ada Lovelace', email: 'ada@team1.test' },
    { team_id: 2, user_id: 21 },
  ]);
  return {
    ...harness,
    links: links!,
    linksAt: (now) => createActionLinks({ store: createActionLinkStore(knex), baseUrl: url, now: () => now }),
    url,
    knex,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await harness.close();
    },
  };
}

/** A triggered alert of team 1, as the API creates it; its stored row. */
export async function createAlert(h: LinkHarness, attributes: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const res = await h.call('POST', '/v1/alerts', {
    body: { data: { type: 'alerts', attributes: { summary: 'Disk full on db-1', description: 'Only 2% left on /var', ...attributes } } },
  });
  if (res.status !== 201) throw new Error(`alert not created: ${res.status} ${JSON.stringify(res.body)}`);
  return (await h.knex('alerts').where({ id: res.body.data.id }).first()) as Record<string, unknown>;
}

/** A notification of `alert` to user 11 over `channel`. */
export function requestFor(alert: Record<string, unknown>, channel: NotificationRequest['channel'], address: string): NotificationRequest {
  return {
    team_id: 1,
    alert,
    user: { user_id: 11, name: 'Ada Lovelace', email: 'ada@team1.test', time_zone: 'Etc/UTC' },
    channel,
    address,
    contact_method_id: null,
    attempt_id: randomUUID(),
    notification_type: 'audible',
  };
}

/** A page of the link endpoint: status and HTML. Opens `url` as the gateway forwards it: the path's token in its header. */
export async function open(url: string, method: 'GET' | 'POST' = 'GET', form?: Record<string, string>) {
  const at = url.lastIndexOf('/');
  const res = await fetch(url.slice(0, at), {
    method,
    ...(form ? { body: new URLSearchParams(form) } : {}),
    headers: { [ACTION_TOKEN_HEADER]: url.slice(at + 1), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}
