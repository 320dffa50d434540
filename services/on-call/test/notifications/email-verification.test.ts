import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { createSmtpMailTransport } from '../../src/data/smtp-mail.transport.js';
import { startWithLinks, type LinkHarness } from './notifications.support.js';

let h: LinkHarness;
let smtp: SMTPServer;
let mailer: ReturnType<typeof createSmtpMailTransport>;
const received: { to: string[]; mail: ParsedMail }[] = [];
/** While set, mails wait for it before reaching the server (a slow server). */
let held: Promise<void> | undefined;
let sending = 0;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('bounce@')) return callback(Object.assign(new Error('5.1.1 No such user'), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream).then((mail) => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), mail });
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  mailer = createSmtpMailTransport({
    url: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    from: 'pager@firewatch.test',
  });
  h = await startWithLinks({
    async send(to, content) {
      sending++;
      await held;
      return mailer.send(to, content);
    },
  });
  await h.knex('users').insert({ ...(await h.knex('users').where({ user_id: 11 }).first()), user_id: 12, email: 'bob@team1.test' });
});

afterAll(async () => {
  mailer?.close();
  await new Promise<void>((resolve) => smtp?.close(() => resolve()));
  await h?.close();
});

const me = { user_id: 11, role: 'user', on_call_role: 'user' };
const anAddress = async (email: string) => {
  const res = await h.call('POST', '/v1/users/11/email_addresses', {
    body: { data: { type: 'user_email_addresses', attributes: { email } } },
    principal: me,
  });
  if (res.status !== 201) throw new Error(`fixture: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
};
const resend = (id: string, principal: Record<string, unknown> = me) =>
  h.call('POST', `/v1/email_addresses/${id}/resend_verification`, { principal });
const verify = (id: string, token?: string, principal: Record<string, unknown> = me) =>
  h.call('POST', `/v1/email_addresses/${id}/verify${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`, { principal });
const codeIn = (mail: ParsedMail) => /Verification code: (\S+)/.exec(mail.text!)![1];

describe('email address verification', () => {
  it('mails a code that verifies the address once; a resend then is a 422', async () => {
    const id = await anAddress('ada@work.example');
    const sent = await resend(id);
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({ type: 'user_email_addresses', id, attributes: { email: 'ada@work.example' } });
    const mail = received.at(-1)!;
    expect(mail.to).toEqual(['ada@work.example']);
    expect(mail.mail.subject).toBe('Verify your email address for Firewatch');
    const code = codeIn(mail.mail);
    const row = await h.knex('user_email_addresses').where({ id }).first();
    expect(row.verification_hash).not.toContain(code);

    expect((await resend(id)).body.errors[0]).toMatchObject({ status: '422', code: 'resent_too_soon' });
    const wrong = await verify(id, 'not-the-code');
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors[0]).toMatchObject({ code: 'invalid_token', source: { parameter: 'token' } });
    expect((await verify(id)).status).toBe(422);
    expect((await h.knex('user_email_addresses').where({ id }).first()).verified_at).toBeNull();

    const ok = await verify(id, code);
    expect(ok.status).toBe(200);
    expect(ok.body.data.id).toBe(id);
    expect((await h.knex('user_email_addresses').where({ id }).first()).verified_at).toBeInstanceOf(Date);
    expect((await verify(id, code)).status).toBe(200);
    expect((await resend(id)).body.errors[0]).toMatchObject({ status: '422', code: 'already_verified' });

    // A changed address is no longer verified.
    const put = await h.call('PUT', `/v1/email_addresses/${id}`, {
      body: { data: { type: 'user_email_addresses', id, attributes: { email: 'ada@new.example' } } },
      principal: me,
    });
    expect(put.status).toBe(200);
    expect((await h.knex('user_email_addresses').where({ id }).first()).verified_at).toBeNull();
  });

  it('refuses an expired code, and a code of another address', async () => {
    const first = await anAddress('ada@one.example');
    const second = await anAddress('ada@two.example');
    await resend(first);
    const code = codeIn(received.at(-1)!.mail);
    expect((await verify(second, code)).status).toBe(422);
    await h
      .knex('user_email_addresses')
      .where({ id: first })
      .update({ verification_expires_at: new Date(Date.now() - 1000) });
    expect((await verify(first, code)).body.errors[0]).toMatchObject({ status: '422', code: 'expired_token' });
  });

  it("is another user's business only for on-call admins: others get 404; unknown ids 404", async () => {
    const id = await anAddress('ada@private.example');
    expect((await resend(id, { user_id: 12, role: 'user', on_call_role: 'user' })).status).toBe(404);
    expect((await verify(id, 'x', { user_id: 12, role: 'user', on_call_role: 'user' })).status).toBe(404);
    expect((await resend(id, { user_id: 21, team_id: 2 })).status).toBe(404);
    expect((await resend('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await resend(id, { user_id: 1, role: 'admin', on_call_role: 'admin' })).status).toBe(200);
  });

  it('keeps the previous code when the server refuses the mail, and answers 503', async () => {
    const id = await anAddress('bounce@example.test');
    const refused = await resend(id);
    expect(refused.status).toBe(503);
    expect(refused.body.errors[0].detail).toContain('the mail server refused the message: 550');
    expect((await h.knex('user_email_addresses').where({ id }).first()).verification_sent_at).toBeNull();
    const previous = { verification_hash: 'ab'.repeat(32), verification_expires_at: new Date(Date.now() + 3600_000) };
    await h.knex('user_email_addresses').where({ id }).update(previous);
    expect((await resend(id)).status).toBe(503);
    expect(await h.knex('user_email_addresses').where({ id }).first()).toMatchObject({ ...previous, verification_sent_at: null });
  });

  it('holds no lock on the address while its mail is on the way', async () => {
    const id = await anAddress('slow@example.test');
    let release!: () => void;
    held = new Promise<void>((resolve) => (release = resolve));
    const before = sending;
    const pending = resend(id);
    try {
      while (sending === before) await new Promise((resolve) => setTimeout(resolve, 10));
      await h.knex.transaction(async (trx) => {
        await trx.raw("SET LOCAL lock_timeout = '500ms'");
        await trx('user_email_addresses').where({ id }).update({ email: 'slow@example.test' });
      });
      // A second resend meanwhile is throttled, not queued behind the first.
      expect((await resend(id)).body.errors[0].code).toBe('resent_too_soon');
    } finally {
      release();
      held = undefined;
    }
    expect((await pending).status).toBe(200);
  });
});
