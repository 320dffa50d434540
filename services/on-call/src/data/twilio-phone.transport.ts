import twilio from 'twilio';
import type { Delivery, PhoneTransport } from '../domain/notifications/notifier.js';

export interface TwilioOptions {
  accountSid: string;
  authToken: string;
  /** The E.164 number messages and calls come from (TWILIO_FROM_NUMBER). */
  from: string;
  /** Another base URL for Twilio's REST API (a stand-in in tests); default Twilio's own. */
  apiUrl?: string;
  timeoutMs?: number;
}

/** A Twilio refusal as a reason the team may read: Twilio's error code and message (never the credentials). */
function refusal(error: unknown): Delivery {
  const e = error as { status?: unknown; code?: unknown; message?: unknown };
  if (typeof e.status === 'number') {
    const code = typeof e.code === 'number' ? ` ${e.code}` : '';
    const message = typeof e.message === 'string' ? `: ${e.message.slice(0, 200)}` : '';
    return { sent: false, reason: `Twilio refused the request (HTTP ${e.status}, error${code})${message}` };
  }
  return { sent: false, reason: 'Twilio could not be reached' };
}

/**
 * SMS and voice calls through Twilio's REST API with the official client. `apiUrl` sets
 * the client's API domain (`client.api.baseUrl`), which every Messages and Calls request
 * is resolved against. No automatic retries: the paging engine owns retrying and the
 * attempt's outcome.
 */
export function createTwilioPhoneTransport(options: TwilioOptions): PhoneTransport {
  const client = twilio(options.accountSid, options.authToken, { timeout: options.timeoutMs ?? 10_000, autoRetry: false });
  if (options.apiUrl) client.api.baseUrl = options.apiUrl;
  const attempt = async (create: () => Promise<{ sid: string }>): Promise<Delivery> => {
    try {
      return { sent: true, id: (await create()).sid };
    } catch (error) {
      return refusal(error);
    }
  };
  return {
    sms: (to, body) => attempt(() => client.messages.create({ to, from: options.from, body })),
    call: (to, twiml) => attempt(() => client.calls.create({ to, from: options.from, twiml })),
  };
}
