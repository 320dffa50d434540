import { z } from 'zod';
import { ValidationError } from '@firewatch/errors';
import { defineAction, type Row } from '@firewatch/resource-kit';
import type { CommunicationsDeps } from '../communications.deps.js';
import { variablesProblem } from '../liquid/preview-variables.js';
import { renderTemplateStages } from '../liquid/template-preview.js';
import { previewSchema } from './template-preview.shape.js';

const body = z.strictObject({
  data: z.strictObject({
    type: z.literal('communications_template_previews'),
    attributes: z
      .strictObject({
        /** What the templates' `{{ ... }}` name, e.g. `{"incident": {"title": "DB down", "severity": "sev1"}}`. */
        variables: z
          .record(z.string(), z.unknown())
          .superRefine((v, ctx) => {
            const problem = variablesProblem(v);
            if (problem) ctx.addIssue({ code: 'custom', message: problem });
          })
          .default({}),
      })
      .default({ variables: {} }),
  }),
});

/**
 * `POST /v1/communications/templates/{id}/preview`: every stage of the template rendered
 * with the given variables, and how many SMS messages its SMS content takes. Changes
 * nothing, so `read` suffices. A render that fails (a limit reached) is a 422 naming the
 * stage and field, or the pool's time or memory bound; a full pool is a 503.
 */
export const previewAction = defineAction<CommunicationsDeps, z.infer<typeof body>>({
  name: 'preview',
  on: 'item',
  method: 'post',
  capabilities: ['read'],
  body,
  summary: 'Renders a communications template with variables',
  response: { status: 200, schema: previewSchema, description: "The template's stages rendered with the variables." },
  async run({ record, deps, body: { data } }) {
    const template = record as Row;
    const rendered = await renderTemplateStages(
      deps.liquid,
      (template.communication_template_stages as Row[]) ?? [],
      data.attributes.variables,
    );
    if ('issue' in rendered)
      throw new ValidationError([{ pointer: '/data/attributes/variables', code: 'render_failed', detail: rendered.issue }]);
    return {
      status: 200,
      document: {
        data: {
          id: String(template.id),
          type: 'communications_template_previews',
          attributes: { communication_template_id: String(template.id), communication_template_stages: rendered.stages },
        },
      },
    };
  },
});
