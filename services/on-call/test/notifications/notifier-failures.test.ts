import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createSmtpMailTransport } from '../../src/data/smtp-mail.transport.js';
import { createTwilioPhoneTransport } from '../../src/data/twilio-phone.transport.js';
import type { ActionLinks } from '../../src/domain/notifications/action-links.js';
import { createNotifier } from '../../src/domain/notifications/notifier.js';
import type { NotificationRequest } from '../../src/domain/paging/paging.ports.js';

/** A provider that takes the connection and never says a word. */
let silent: net.Server;
const sockets = new Set<net.Socket>();
let port: number;

beforeAll(async () => {
  silent = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  port = (silent.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

const link = 'https://fw.example/alert-actions/AAAAAAAAAAAAAAAAAAAAAA';
const links = { urls: async () => ({ acknowledge: link, resolve: link }) } as unknown as ActionLinks;
const request = (channel: NotificationRequest['channel'], address: string) =>
  ({
    team_id: 1,
    alert: { id: 'a', summary: 'Disk full' },
    user: { user_id: 1, name: 'Ada', email: 'ada@example.test', time_zone: 'Etc/UTC' },
    channel,
    address,
    contact_method_id: null,
    attempt_id: 'n',
    notification_type: 'audible',
  }) as NotificationRequest;

const timed = async <T>(work: Promise<T>) => {
  const started = Date.now();
  const value = await work;
  return { value, ms: Date.now() - started };
};

describe('a provider that never answers', () => {
  it('is a failed SMS or call after NOTIFICATION_TIMEOUT_MS, not a page stuck', async () => {
    const phone = createTwilioPhoneTransport({
      accountSid: 'AC1',
      authToken: 't',
      from: '+15005550006',
      apiUrl: `http://127.0.0.1:${port}`,
      timeoutMs: 300,
    });
    const { value, ms } = await timed(createNotifier({ phone, links }).send(request('sms', '+14155550100')));
    expect(value).toEqual({ status: 'failed', reason: 'Twilio could not be reached' });
    expect(ms).toBeLessThan(10_000); // a hang would reach the test timeout; a loaded machine may take seconds
  });

  it('is a failed email after NOTIFICATION_TIMEOUT_MS', async () => {
    const email = createSmtpMailTransport({ url: `smtp://127.0.0.1:${port}`, from: 'pager@firewatch.test', timeoutMs: 300 });
    const { value, ms } = await timed(createNotifier({ email, links }).send(request('email', 'ada@example.test')));
    email.close();
    expect(value).toEqual({ status: 'failed', reason: 'the mail server could not be reached' });
    expect(ms).toBeLessThan(10_000); // a hang would reach the test timeout; a loaded machine may take seconds
  });

  it('is failed with its own reason, the provider never asked, when the links cannot be stored', async () => {
    const unexpected: unknown[] = [];
    const email = createSmtpMailTransport({ url: `smtp://127.0.0.1:${port}`, from: 'pager@firewatch.test', timeoutMs: 300 });
    const broken = { urls: () => Promise.reject(new Error('insert violates foreign key constraint')) } as unknown as ActionLinks;
    const notifier = createNotifier({ email, links: broken, onUnexpected: (error) => unexpected.push(error) });
    const before = sockets.size;
    expect(await notifier.send(request('email', 'ada@example.test'))).toEqual({
      status: 'failed',
      reason: 'email could not be sent: its acknowledge and resolve links could not be stored',
    });
    email.close();
    expect(sockets.size).toBe(before);
    expect(unexpected).toHaveLength(1);
  });
});
