import { createTransport } from 'nodemailer';
import type { Delivery, EmailTransport } from '../domain/notifications/notifier.js';

export interface SmtpOptions {
  /** `smtp://user:pass@host:port` or `smtps://...` (SMTP_URL). */
  url: string;
  /** The sender (SMTP_FROM), e.g. `Firewatch <pager@example.com>`. */
  from: string;
  /**
   * SMTP connections kept open (SMTP_POOL_SIZE), each one message at a time: how many pages
   * are on their way to the server at once. nodemailer's own default is 5.
   */
  poolSize?: number;
  /** Connection, greeting and socket timeouts; a page must not wait on a dead server. */
  timeoutMs?: number;
}

/** Connection-level failures: the server was not reached or did not answer. */
const UNREACHABLE = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'ENOTFOUND']);

/** What a failed send means, without the URL's credentials. */
function refusal(error: unknown): Delivery {
  const e = error as { code?: string; responseCode?: number; response?: string };
  const reason =
    e.code === 'EAUTH'
      ? 'the mail server refused the SMTP credentials'
      : typeof e.responseCode === 'number'
        ? `the mail server refused the message: ${String(e.response ?? e.responseCode).slice(0, 200)}`
        : e.code && UNREACHABLE.has(e.code)
          ? 'the mail server could not be reached'
          : 'the mail server did not accept the message';
  return { sent: false, reason };
}

/** Email over SMTP with nodemailer: one pooled transport per process. */
export function createSmtpMailTransport(options: SmtpOptions): EmailTransport & { close(): void } {
  const timeout = options.timeoutMs ?? 10_000;
  const transport = createTransport(
    {
      url: options.url,
      pool: true,
      maxConnections: options.poolSize ?? 10,
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
    },
    { from: options.from },
  );
  return {
    async send(to, content) {
      try {
        const info = await transport.sendMail({ to, subject: content.subject, text: content.text, html: content.html });
        return { sent: true, id: info.messageId };
      } catch (error) {
        return refusal(error);
      }
    },
    close: () => transport.close(),
  };
}
