/** The Liquid fields of a template stage (the specification's `chat_content` is the reference's `slack_content`). */
export const CONTENT_FIELDS = ['email_subject', 'email_body', 'chat_content', 'sms_content'] as const;

export type ContentField = (typeof CONTENT_FIELDS)[number];
