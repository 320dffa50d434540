import type { NotificationRequest } from '../paging/paging.ports.js';

/** The action links a message carries: each acts once, as the paged user, without signing in. */
export interface ActionUrls {
  acknowledge: string;
  resolve: string;
}

export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

/** SMS bodies past one concatenated message cost more and some carriers cut them. */
const SMS_SUMMARY_MAX = 120;
/** What a voice call reads out: a long description is not something to listen to. */
const SPOKEN_SUMMARY_MAX = 300;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text safe inside HTML or XML text and attribute values: an alert's summary comes from whoever posted it. */
export const escapeMarkup = (value: string): string => value.replace(/[&<>"']/g, (c) => ESCAPES[c]);

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');
const clip = (value: string, max: number) => (value.length > max ? `${value.slice(0, max - 1)}…` : value);

interface AlertView {
  summary: string;
  description: string;
  urgency: string;
  link: string;
  reference: string;
}

/** What every channel says of the alert, from the stored row (missing fields read as empty). */
function viewOf(request: NotificationRequest): AlertView {
  const { alert } = request;
  // The engine passes the urgency's name, or the urgency record; a row as stored has neither.
  const urgency = typeof alert.urgency === 'string' ? alert.urgency : (alert.urgency as { name?: unknown } | null | undefined)?.name;
  const shortId = text(alert.short_id);
  return {
    summary: text(alert.summary) || 'Alert',
    description: text(alert.description),
    urgency: text(urgency),
    link: /^https?:\/\//i.test(text(alert.external_url)) ? text(alert.external_url) : '',
    reference: shortId ? `#${shortId}` : `${String(alert.id ?? '')}`.slice(0, 8),
  };
}

/**
 * The email of a page: a plain-text part and a simple HTML part with the alert's summary,
 * description, urgency and source link, and the acknowledge and resolve links.
 */
export function emailContent(request: NotificationRequest, urls: ActionUrls): EmailContent {
  const v = viewOf(request);
  const tag = v.urgency ? `[${v.urgency}] ` : '';
  const subject = clip(`${tag}Alert ${v.reference}: ${v.summary}`.replace(/\s+/g, ' '), 200);
  const lines = [
    `Hello ${request.user.name},`,
    '',
    `You are paged for this alert:`,
    '',
    v.summary,
    ...(v.urgency ? [`Urgency: ${v.urgency}`] : []),
    ...(v.description ? ['', v.description] : []),
    ...(v.link ? ['', `Source: ${v.link}`] : []),
    '',
    `Acknowledge: ${urls.acknowledge}`,
    `Resolve: ${urls.resolve}`,
    '',
    'Each link works once and asks you to confirm before it acts.',
  ];
  const e = escapeMarkup;
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif">',
    `<p>Hello ${e(request.user.name)},</p>`,
    `<p>You are paged for this alert:</p>`,
    `<h2>${e(v.summary)}</h2>`,
    v.urgency ? `<p><strong>Urgency:</strong> ${e(v.urgency)}</p>` : '',
    v.description ? `<p style="white-space:pre-wrap">${e(v.description)}</p>` : '',
    v.link ? `<p><a href="${e(v.link)}">Open the source</a></p>` : '',
    `<p><a href="${e(urls.acknowledge)}">Acknowledge</a> &nbsp; <a href="${e(urls.resolve)}">Resolve</a></p>`,
    '<p style="color:#666">Each link works once and asks you to confirm before it acts.</p>',
    '</body></html>',
  ].join('');
  return { subject, text: lines.join('\n'), html };
}

/** An SMS: the summary (clipped) and the acknowledge link. */
export function smsBody(request: NotificationRequest, urls: ActionUrls): string {
  const v = viewOf(request);
  const tag = v.urgency ? ` [${v.urgency}]` : '';
  return `Firewatch alert${tag}: ${clip(v.summary, SMS_SUMMARY_MAX)}\nAck: ${urls.acknowledge}`;
}

/**
 * A voice call's TwiML: the summary said twice, and a `<Gather>` of one digit posted to the
 * acknowledge link (1 acknowledges; Twilio posts the digit there, no sign-in needed).
 */
export function voiceTwiml(request: NotificationRequest, urls: ActionUrls): string {
  const v = viewOf(request);
  const said = escapeMarkup(clip(`Firewatch alert. ${v.urgency ? `${v.urgency} urgency. ` : ''}${v.summary}`, SPOKEN_SUMMARY_MAX));
  return [
    '<?xml version="1.0" encoding="UTF-8"?><Response>',
    `<Gather numDigits="1" timeout="10" method="POST" action="${escapeMarkup(urls.acknowledge)}">`,
    `<Say>${said}</Say><Say>Press 1 to acknowledge.</Say>`,
    '</Gather>',
    `<Say>${said}</Say>`,
    '</Response>',
  ].join('');
}

/** The mail of `resend_verification`: the code to send to `verify`, and how long it works. */
export function verificationEmailContent(address: string, code: string, hours: number): EmailContent {
  const text = [
    `Firewatch was asked to verify ${address} for on-call notifications.`,
    '',
    `Verification code: ${code}`,
    '',
    `Send it to POST /v1/email_addresses/{id}/verify?token=<code> within ${hours} hours.`,
    'If you did not ask for this, ignore this email.',
  ].join('\n');
  const e = escapeMarkup;
  const html =
    '<!doctype html><html><body style="font-family:sans-serif">' +
    `<p>Firewatch was asked to verify ${e(address)} for on-call notifications.</p>` +
    `<p>Verification code: <code>${e(code)}</code></p>` +
    `<p>Send it to <code>POST /v1/email_addresses/{id}/verify?token=&lt;code&gt;</code> within ${hours} hours.</p>` +
    '<p style="color:#666">If you did not ask for this, ignore this email.</p></body></html>';
  return { subject: 'Verify your email address for Firewatch', text, html };
}
