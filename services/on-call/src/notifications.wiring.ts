import type { Knex } from 'knex';
import type { Logger } from '@firewatch/logger';
import type { Config } from './config.js';
import { createActionLinkStore } from './data/alert-action-links.repository.js';
import { createSmtpMailTransport } from './data/smtp-mail.transport.js';
import { createTwilioPhoneTransport } from './data/twilio-phone.transport.js';
import { createActionLinks, type ActionLinks } from './domain/notifications/action-links.js';
import { createNotifier, type EmailTransport } from './domain/notifications/notifier.js';
import type { Notifier } from './domain/paging/paging.ports.js';

export interface Notifications {
  notifier: Notifier;
  links: ActionLinks;
  /** Email over SMTP when configured: verification mails use it directly. */
  email?: EmailTransport;
  close(): void;
}

type NotificationConfig = Pick<
  Config,
  | 'SMTP_URL'
  | 'SMTP_FROM'
  | 'SMTP_POOL_SIZE'
  | 'TWILIO_ACCOUNT_SID'
  | 'TWILIO_AUTH_TOKEN'
  | 'TWILIO_FROM_NUMBER'
  | 'TWILIO_API_URL'
  | 'NOTIFICATION_TIMEOUT_MS'
  | 'PUBLIC_URL'
  | 'PAGING_LINK_TTL_HOURS'
>;

/**
 * The channels that reach a person, from configuration (docs/paging.md, "Notifications"):
 * email when SMTP_URL is set, SMS and voice when the three Twilio settings are; the
 * paging engine is handed `notifier`, the link endpoint `links`.
 */
export function notificationsFrom(config: NotificationConfig, knex: Knex, logger: Logger): Notifications {
  const links = createActionLinks({
    store: createActionLinkStore(knex),
    baseUrl: config.PUBLIC_URL,
    ttlSeconds: Math.round(config.PAGING_LINK_TTL_HOURS * 3600),
  });
  const email = config.SMTP_URL
    ? createSmtpMailTransport({
        url: config.SMTP_URL,
        from: config.SMTP_FROM,
        poolSize: config.SMTP_POOL_SIZE,
        timeoutMs: config.NOTIFICATION_TIMEOUT_MS,
      })
    : undefined;
  const { TWILIO_ACCOUNT_SID: sid, TWILIO_AUTH_TOKEN: token, TWILIO_FROM_NUMBER: from } = config;
  const phone =
    sid && token && from
      ? createTwilioPhoneTransport({
          accountSid: sid,
          authToken: token,
          from,
          apiUrl: config.TWILIO_API_URL,
          timeoutMs: config.NOTIFICATION_TIMEOUT_MS,
        })
      : undefined;
  const notifier = createNotifier({
    email,
    phone,
    links,
    onUnexpected: (error, request) =>
      logger.warn('notification failed', { channel: request.channel, attempt_id: request.attempt_id, error }),
  });
  return { notifier, links, email, close: () => email?.close() };
}
