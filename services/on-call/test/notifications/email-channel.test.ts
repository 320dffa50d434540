import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { createSmtpMailTransport } from '../../src/data/smtp-mail.transport.js';
import { createNotifier } from '../../src/domain/notifications/notifier.js';
import { createAlert, open, requestFor, startWithLinks, type LinkHarness } from './notifications.support.js';

interface Received {
  from: string;
  to: string[];
  user: string;
  mail: ParsedMail;
}

let h: LinkHarness;
let smtp: SMTPServer;
let smtpUrl: string;
const received: Received[] = [];

beforeAll(async () => {
  h = await startWithLinks();
  // A real SMTP server: it checks the login, refuses one recipient as a server would, and keeps what arrives.
  smtp = new SMTPServer({
    secure: false,
    authOptional: false,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'pager' && auth.password === 's3cret') return callback(null, { user: auth.username });
      callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('nobody@')) return callback(Object.assign(new Error('5.1.1 No such user'), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream).then((mail) => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          user: String(session.user),
          mail,
        });
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpUrl = `smtp://pager:s3cret@127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => smtp?.close(() => resolve()));
  await h?.close();
});

const linksIn = (text: string) => ({
  acknowledge: /Acknowledge: (\S+)/.exec(text)![1],
  resolve: /Resolve: (\S+)/.exec(text)![1],
});

describe('email over SMTP', () => {
  it('sends the page with working single-use acknowledge and resolve links', async () => {
    const alert = await createAlert(h, { external_url: 'https://grafana.example/d/db' });
    const mailer = createSmtpMailTransport({ url: smtpUrl, from: 'Firewatch <pager@firewatch.test>' });
    const notifier = createNotifier({ email: mailer, links: h.links });
    const outcome = await notifier.send(requestFor({ ...alert, urgency: 'High' }, 'email', 'ada@example.test'));
    mailer.close();
    expect(outcome.status).toBe('sent');
    expect(outcome.provider_id).toMatch(/@/);

    expect(received).toHaveLength(1);
    const [{ from, to, user, mail }] = received;
    expect({ from, to, user }).toEqual({ from: 'pager@firewatch.test', to: ['ada@example.test'], user: 'pager' });
    expect(mail.subject).toBe(`[High] Alert #${String(alert.short_id)}: Disk full on db-1`);
    expect(mail.text).toContain('Only 2% left on /var');
    expect(mail.text).toContain('Urgency: High');
    expect(mail.text).toContain('Source: https://grafana.example/d/db');
    expect(mail.html).toContain('<h2>Disk full on db-1</h2>');
    const urls = linksIn(mail.text!);
    expect(mail.html).toContain(`href="${urls.acknowledge}"`);
    expect(urls.acknowledge.startsWith(`${h.url}/alert-actions/`)).toBe(true);

    // GET shows a confirmation and changes nothing (mail scanners follow links).
    const confirm = await open(urls.acknowledge);
    expect(confirm.status).toBe(200);
    expect(confirm.headers.get('cache-control')).toBe('no-store');
    expect(confirm.headers.get('referrer-policy')).toBe('no-referrer');
    expect(confirm.text).toContain('Acknowledge this alert?');
    expect(confirm.text).toContain('<form method="post">');
    expect((await h.knex('alerts').where({ id: alert.id }).first()).status).toBe('triggered');

    const done = await open(urls.acknowledge, 'POST');
    expect(done.status).toBe(200);
    expect(done.text).toContain('Alert acknowledged');
    expect((await h.knex('alerts').where({ id: alert.id }).first()).status).toBe('acknowledged');
    const events = await h.knex('alert_events').where({ alert_id: alert.id, action: 'acknowledged' });
    expect(events.map((e: Record<string, unknown>) => [e.source, e.user_id])).toEqual([['email', 11]]);

    // Single use: a second use (confirmation or action) says so and does nothing.
    expect(await open(urls.acknowledge, 'POST')).toMatchObject({ status: 409, text: expect.stringContaining('already used') });
    expect((await open(urls.acknowledge)).status).toBe(409);

    expect((await open(urls.resolve, 'POST')).status).toBe(200);
    expect((await h.knex('alerts').where({ id: alert.id }).first()).status).toBe('resolved');
    const resolved = await h.knex('alert_events').where({ alert_id: alert.id, action: 'resolved' }).first();
    expect([resolved.source, resolved.user_id]).toEqual(['email', 11]);
  });

  it("is failed with the server's reason when it refuses the recipient or the login", async () => {
    const alert = await createAlert(h);
    const refused = createSmtpMailTransport({ url: smtpUrl, from: 'pager@firewatch.test' });
    const outcome = await createNotifier({ email: refused, links: h.links }).send(requestFor(alert, 'email', 'nobody@example.test'));
    refused.close();
    expect(outcome).toEqual({ status: 'failed', reason: expect.stringMatching(/^the mail server refused the message: 550/) });

    const badLogin = createSmtpMailTransport({ url: smtpUrl.replace('s3cret', 'wrong'), from: 'pager@firewatch.test' });
    const denied = await createNotifier({ email: badLogin, links: h.links }).send(requestFor(alert, 'email', 'ada@example.test'));
    badLogin.close();
    expect(denied).toEqual({ status: 'failed', reason: 'the mail server refused the SMTP credentials' });
  });

  it('is failed, not thrown, when no server answers, and skipped when SMTP is not configured', async () => {
    const alert = await createAlert(h);
    const nowhere = createSmtpMailTransport({ url: 'smtp://127.0.0.1:1', from: 'pager@firewatch.test', timeoutMs: 2000 });
    expect(await createNotifier({ email: nowhere, links: h.links }).send(requestFor(alert, 'email', 'ada@example.test'))).toEqual({
      status: 'failed',
      reason: 'the mail server could not be reached',
    });
    nowhere.close();
    expect(await createNotifier({ links: h.links }).send(requestFor(alert, 'email', 'ada@example.test'))).toEqual({
      status: 'skipped',
      reason: 'email is not configured (SMTP_URL)',
    });
  });
});
