const text = { type: ['string', 'null'] };

/** OpenAPI of a preview's answer (beyond the reference). */
export const previewSchema: Record<string, unknown> = {
  type: 'object',
  required: ['data'],
  properties: {
    data: {
      type: 'object',
      required: ['id', 'type', 'attributes'],
      properties: {
        id: { type: 'string', description: 'The template ID' },
        type: { type: 'string', enum: ['communications_template_previews'] },
        attributes: {
          type: 'object',
          required: ['communication_template_id', 'communication_template_stages'],
          properties: {
            communication_template_id: { type: 'string' },
            communication_template_stages: {
              type: 'array',
              items: {
                type: 'object',
                required: ['id', 'communication_stage', 'email_subject', 'email_body', 'chat_content', 'sms_content', 'sms_segments'],
                properties: {
                  id: { type: 'string', description: 'The template stage ID' },
                  communication_stage: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } },
                  email_subject: text,
                  email_body: text,
                  chat_content: text,
                  sms_content: text,
                  sms_segments: {
                    type: 'object',
                    required: ['encoding', 'units', 'segments'],
                    description:
                      'GSM-7: 160 septets in one message, 153 per part; UCS-2: 70 UTF-16 units, 67 per part; 0 segments for no text.',
                    properties: {
                      encoding: { type: 'string', enum: ['GSM-7', 'UCS-2'] },
                      units: { type: 'integer', description: 'Septets (GSM-7) or UTF-16 code units (UCS-2)' },
                      segments: { type: 'integer' },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
};
