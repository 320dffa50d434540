/** The Liquid fields of a template stage (the specification's `chat_content` is the reference's `slack_content`). */
export const CONTENT_FIELDS = ['email_subject', 'email_body', 'chat_content', 'sms_content'] as const;

export type ContentField = (typeof CONTENT_FIELDS)[number];

/**
 * Characters a field may hold. The reference sets no bound; these are what each channel
 * carries: an email subject line (RFC 5322 caps a line at 998 characters), an email
 * body, a chat message (Slack refuses a message over 40,000 characters) and an SMS:
 * carriers commonly deliver up to ten concatenated parts (about 1,600 characters), and
 * the source may hold Liquid around that text, so it may be 4,000; the preview's
 * `sms_segments` tells what the rendered text costs.
 */
export const FIELD_MAX: Record<ContentField, number> = {
  email_subject: 1_000,
  email_body: 100_000,
  chat_content: 40_000,
  sms_content: 4_000,
};

/**
 * A template's bounds as a whole, its kept entries and the request's together: its
 * events, answers and list pages carry all of it, and a broker refuses large messages.
 */
export const TEMPLATE_MAX = {
  /** Characters of Liquid over all stage entries' fields. */
  content: 1_000_000,
  /** Stage entries. */
  entries: 100,
} as const;
