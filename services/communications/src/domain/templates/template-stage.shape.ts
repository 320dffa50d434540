import { jsonValue, type Row } from '@firewatch/resource-kit';

const text = { type: ['string', 'null'] };
const named = (what: string) => ({
  type: 'object',
  required: ['id', 'name'],
  properties: {
    id: { type: 'string', description: `The communication ${what} ID` },
    name: { type: 'string', description: `The communication ${what} name` },
  },
});

/** One stage row (names added by the declaration's `expand`) as docs/communications.md shows it: a `data` object. */
export function templateStage(row: Row): unknown {
  return {
    data: {
      id: String(row.id),
      type: 'communications_template_stages',
      attributes: {
        email_body: row.email_body ?? null,
        email_subject: row.email_subject ?? null,
        chat_content: row.chat_content ?? null,
        sms_content: row.sms_content ?? null,
        created_at: jsonValue(row.created_at),
        updated_at: jsonValue(row.updated_at),
        communication_stage: { id: String(row.communication_stage_id), name: row.communication_stage_name },
        communication_template: { id: String(row.communications_template_id), name: row.communication_template_name },
      },
    },
  };
}

/** OpenAPI of the template attributes the write schemas do not describe. */
export const templateAttributeSchemas: Record<string, Record<string, unknown>> = {
  slug: { type: 'string' },
  position: { type: 'integer' },
  communication_type: named('type'),
  communication_template_stages: {
    type: 'array',
    items: {
      type: 'object',
      required: ['data'],
      properties: {
        data: {
          type: 'object',
          required: ['id', 'type', 'attributes'],
          properties: {
            id: { type: 'string' },
            type: { type: 'string', enum: ['communications_template_stages'] },
            attributes: {
              type: 'object',
              properties: {
                email_body: text,
                email_subject: text,
                chat_content: text,
                sms_content: text,
                created_at: { type: 'string', format: 'date-time' },
                updated_at: { type: 'string', format: 'date-time' },
                communication_stage: named('stage'),
                communication_template: named('template'),
              },
            },
          },
        },
      },
    },
  },
};
