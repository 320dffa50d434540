import type { NotificationOutcome, NotificationRequest, Notifier } from '../paging/paging.ports.js';
import type { ActionLinks } from './action-links.js';
import { emailContent, smsBody, voiceTwiml, type ActionUrls, type EmailContent } from './notification-message.js';

/**
 * What a transport says of one message: accepted (with the provider's id), or refused or
 * unreachable with a reason safe to show the team (never a credential).
 */
export type Delivery = { sent: true; id?: string } | { sent: false; reason: string };

/** Email over SMTP (data/smtp-mail.transport.ts). */
export interface EmailTransport {
  send(to: string, content: EmailContent): Promise<Delivery>;
}

/** SMS and voice through Twilio (data/twilio-phone.transport.ts). */
export interface PhoneTransport {
  sms(to: string, body: string): Promise<Delivery>;
  call(to: string, twiml: string): Promise<Delivery>;
}

export interface NotifierDeps {
  /** Absent when SMTP_URL is not set. */
  email?: EmailTransport;
  /** Absent when Twilio is not configured. */
  phone?: PhoneTransport;
  links: ActionLinks;
  /** Unexpected failures (a transport that threw rather than answer) are logged with their detail. */
  onUnexpected?: (error: unknown, request: NotificationRequest) => void;
}

const NOT_CONFIGURED = {
  email: 'email is not configured (SMTP_URL)',
  sms: 'SMS is not configured (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM_NUMBER)',
  voice: 'voice calls are not configured (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM_NUMBER)',
} as const;

/**
 * The {@link Notifier} the paging engine calls: builds the message of the request's
 * channel with its action links and hands it to that channel's transport. It never throws:
 * a channel that is not configured is `skipped`, a provider's refusal or an unreachable
 * provider is `failed`, each with a reason the team may read.
 */
export function createNotifier(deps: NotifierDeps): Notifier {
  async function deliver(request: NotificationRequest): Promise<Delivery | null> {
    const transport = request.channel === 'email' ? deps.email : deps.phone;
    if (!transport) return null;
    let urls: ActionUrls;
    try {
      urls = await deps.links.urls(request);
    } catch (error) {
      // Stored in on-call's database (action-links.ts): no fault of the provider's, and nothing was sent.
      deps.onUnexpected?.(error, request);
      return { sent: false, reason: `${request.channel} could not be sent: its acknowledge and resolve links could not be stored` };
    }
    if (request.channel === 'email') return deps.email!.send(request.address, emailContent(request, urls));
    if (request.channel === 'sms') return deps.phone!.sms(request.address, smsBody(request, urls));
    return deps.phone!.call(request.address, voiceTwiml(request, urls));
  }

  return {
    async send(request): Promise<NotificationOutcome> {
      try {
        const delivery = await deliver(request);
        if (!delivery) return { status: 'skipped', reason: NOT_CONFIGURED[request.channel] };
        if (!delivery.sent) return { status: 'failed', reason: delivery.reason };
        return { status: 'sent', ...(delivery.id ? { provider_id: delivery.id } : {}) };
      } catch (error) {
        deps.onUnexpected?.(error, request);
        return { status: 'failed', reason: `${request.channel} could not be sent: the provider could not be reached` };
      }
    },
  };
}
