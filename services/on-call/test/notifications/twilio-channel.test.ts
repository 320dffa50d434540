import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTwilioPhoneTransport } from '../../src/data/twilio-phone.transport.js';
import { createNotifier } from '../../src/domain/notifications/notifier.js';
import { createAlert, open, requestFor, startWithLinks, type LinkHarness } from './notifications.support.js';

const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'twilio-auth-token';
const FROM = '+15005550006';

interface Seen {
  path: string;
  form: Record<string, string>;
}

let h: LinkHarness;
let twilio: http.Server;
let apiUrl: string;
const seen: Seen[] = [];

/**
 * A stand-in for Twilio's REST API that checks every request as Twilio would (path,
 * basic auth, form fields) and answers with Twilio's shapes: 201 with a resource, or
 * Twilio's error document (400 with its code for a number it will not reach).
 */
function standIn(req: http.IncomingMessage, res: http.ServerResponse, body: string) {
  const answer = (status: number, document: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(document));
  const auth = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
  if (auth !== `${SID}:${TOKEN}`)
    return answer(401, { code: 20003, message: 'Authenticate', more_info: 'https://www.twilio.com/docs/errors/20003', status: 401 });
  const match = new RegExp(`^/2010-04-01/Accounts/${SID}/(Messages|Calls)\\.json$`).exec(req.url ?? '');
  if (req.method !== 'POST' || !match || !/^application\/x-www-form-urlencoded/.test(req.headers['content-type'] ?? ''))
    return answer(404, { code: 20404, message: 'The requested resource was not found', status: 404 });
  const form = Object.fromEntries(new URLSearchParams(body));
  seen.push({ path: match[1], form });
  if (form.From !== FROM) return answer(400, { code: 21212, message: 'Invalid From Number', status: 400 });
  if (form.To === '+15005550001')
    return answer(400, { code: 21211, message: `The 'To' number ${form.To} is not a valid phone number.`, status: 400 });
  if (match[1] === 'Messages') {
    if (!form.Body) return answer(400, { code: 21602, message: 'Message body is required.', status: 400 });
    return answer(201, { sid: 'SM' + '1'.repeat(32), account_sid: SID, to: form.To, from: form.From, body: form.Body, status: 'queued' });
  }
  if (!form.Twiml) return answer(400, { code: 21205, message: 'Url parameter is required.', status: 400 });
  return answer(201, { sid: 'CA' + '2'.repeat(32), account_sid: SID, to: form.To, from: form.From, status: 'queued' });
}

beforeAll(async () => {
  h = await startWithLinks();
  twilio = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => standIn(req, res, body));
  });
  await new Promise<void>((resolve) => twilio.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(twilio.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => twilio?.close(resolve));
  await h?.close();
});

const notifier = (options: { token?: string } = {}) =>
  createNotifier({
    phone: createTwilioPhoneTransport({ accountSid: SID, authToken: options.token ?? TOKEN, from: FROM, apiUrl }),
    links: h.links,
  });

describe('SMS and voice through Twilio', () => {
  it('sends an SMS with the summary and a working acknowledge link', async () => {
    seen.length = 0;
    const alert = await createAlert(h);
    const outcome = await notifier().send(requestFor({ ...alert, urgency: { name: 'High' } }, 'sms', '+14155550100'));
    expect(outcome).toEqual({ status: 'sent', provider_id: 'SM' + '1'.repeat(32) });
    expect(seen).toHaveLength(1);
    expect(seen[0].path).toBe('Messages');
    expect(seen[0].form).toMatchObject({ To: '+14155550100', From: FROM });
    const [first, second] = seen[0].form.Body.split('\n');
    expect(first).toBe('Firewatch alert [High]: Disk full on db-1');
    const ack = /^Ack: (\S+)$/.exec(second)![1];
    expect((await open(ack, 'POST')).status).toBe(200);
    expect((await h.knex('alerts').where({ id: alert.id }).first()).status).toBe('acknowledged');
  });

  it('calls with TwiML that says the summary and acknowledges on digit 1', async () => {
    seen.length = 0;
    const alert = await createAlert(h, { summary: 'CPU <high> & "hot"' });
    const outcome = await notifier().send(requestFor(alert, 'voice', '+14155550100'));
    expect(outcome).toEqual({ status: 'sent', provider_id: 'CA' + '2'.repeat(32) });
    expect(seen.map((s) => s.path)).toEqual(['Calls']);
    const { Twiml: twiml, To: to } = seen[0].form;
    expect(to).toBe('+14155550100');
    expect(twiml).toContain('<Say>Firewatch alert. CPU &lt;high&gt; &amp; &quot;hot&quot;</Say>');
    const action = /<Gather numDigits="1"[^>]* action="([^"]+)"/.exec(twiml)![1].replace(/&amp;/g, '&');

    // Twilio posts the digits pressed to the Gather's action and reads the TwiML answer.
    const other = await open(action, 'POST', { Digits: '2', CallSid: 'CA' + '2'.repeat(32) });
    expect(other.text).toContain('Not acknowledged');
    expect((await h.knex('alerts').where({ id: alert.id }).first()).status).toBe('triggered');
    const one = await open(action, 'POST', { Digits: '1', CallSid: 'CA' + '2'.repeat(32) });
    expect(one.headers.get('content-type')).toMatch(/^text\/xml/);
    expect(one.text).toContain('<Say>Acknowledged. Goodbye.</Say>');
    const event = await h.knex('alert_events').where({ alert_id: alert.id, action: 'acknowledged' }).first();
    // The link was sent by a call: its event says so.
    expect([event.source, event.user_id]).toEqual(['voice', 11]);
  });

  it("maps Twilio's refusals to failed with its code and message, never a throw", async () => {
    const alert = await createAlert(h);
    expect(await notifier().send(requestFor(alert, 'sms', '+15005550001'))).toEqual({
      status: 'failed',
      reason: "Twilio refused the request (HTTP 400, error 21211): The 'To' number +15005550001 is not a valid phone number.",
    });
    expect(await notifier({ token: 'wrong' }).send(requestFor(alert, 'voice', '+14155550100'))).toEqual({
      status: 'failed',
      reason: 'Twilio refused the request (HTTP 401, error 20003): Authenticate',
    });
    const unreachable = createNotifier({
      phone: createTwilioPhoneTransport({ accountSid: SID, authToken: TOKEN, from: FROM, apiUrl: 'http://127.0.0.1:1' }),
      links: h.links,
    });
    expect(await unreachable.send(requestFor(alert, 'sms', '+14155550100'))).toEqual({
      status: 'failed',
      reason: 'Twilio could not be reached',
    });
  });

  it('skips SMS and calls when Twilio is not configured', async () => {
    const alert = await createAlert(h);
    const none = createNotifier({ links: h.links });
    expect(await none.send(requestFor(alert, 'sms', '+14155550100'))).toMatchObject({
      status: 'skipped',
      reason: expect.stringContaining('SMS is not configured'),
    });
    expect(await none.send(requestFor(alert, 'voice', '+14155550100'))).toMatchObject({
      status: 'skipped',
      reason: expect.stringContaining('voice calls are not configured'),
    });
  });
});
