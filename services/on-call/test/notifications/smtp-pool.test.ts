import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { createSmtpMailTransport } from '../../src/data/smtp-mail.transport.js';

/** How many SMTP exchanges the transport runs at once (SMTP_POOL_SIZE), against a real server that answers slowly. */
let smtp: SMTPServer;
let url: string;
let open = 0;
let peak = 0;

beforeAll(async () => {
  smtp = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      peak = Math.max(peak, ++open);
      callback();
    },
    onClose() {
      open--;
    },
    onData(stream, _session, callback) {
      stream.resume();
      // A slow server: each message takes 100 ms, so the sends overlap.
      stream.on('end', () => setTimeout(callback, 100));
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  url = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => smtp?.close(() => resolve()));
});

async function peakOf(sends: number, poolSize?: number) {
  peak = 0;
  const mailer = createSmtpMailTransport({ url, from: 'pager@firewatch.test', poolSize });
  const content = { subject: 'page', text: 'disk full', html: '<p>disk full</p>' };
  const outcomes = await Promise.all(Array.from({ length: sends }, (_, i) => mailer.send(`user${i}@example.test`, content)));
  mailer.close();
  expect(outcomes.every((o) => o.sent)).toBe(true);
  return peak;
}

describe('the SMTP pool', () => {
  it('opens as many connections as SMTP_POOL_SIZE allows, 10 by default (nodemailer alone: 5)', async () => {
    expect(await peakOf(8, 3)).toBe(3);
    expect(await peakOf(15)).toBe(10);
  });
});
