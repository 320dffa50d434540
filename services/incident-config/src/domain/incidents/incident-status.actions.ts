import { z } from 'zod';
import { ValidationError } from '@firewatch/errors';
import { ref } from '@firewatch/openapi';
import { defineAction } from '@firewatch/resource-kit';
import { transition, type IncidentAction } from './incident-status.machine.js';

const message = z.string().max(10_000).nullable().optional();

/** The attribute each action's body may carry (the reference's mitigate_incident, resolve_incident, ...). */
const MESSAGE_OF: Partial<Record<IncidentAction, string>> = {
  mitigate: 'mitigation_message',
  resolve: 'resolution_message',
  cancel: 'cancellation_message',
};

const SUMMARIES: Record<IncidentAction, string> = {
  in_triage: 'Put an incident in triage',
  mitigate: 'Mitigate an incident',
  resolve: 'Resolve an incident',
  cancel: 'Cancel an incident',
  restart: 'Restart an incident',
};

/** `{data: {type: 'incidents', attributes?: {<message>}}}`; `data.id` is accepted as on updates. */
function bodyOf(action: IncidentAction) {
  const attribute = MESSAGE_OF[action];
  const attributes = z.strictObject(attribute ? { [attribute]: message } : {});
  return z.object({ data: z.strictObject({ type: z.literal('incidents'), id: z.string().optional(), attributes: attributes.optional() }) });
}

/**
 * `PUT /v1/incidents/{id}/<action>`: moves the locked incident as the status machine
 * says, through the declaration's update so the change is checked and emits its own
 * event (`incident.mitigated`). A transition that makes no sense is a 422 and writes nothing.
 */
export function incidentStatusAction(action: IncidentAction) {
  const attribute = MESSAGE_OF[action];
  return defineAction({
    name: action,
    on: 'item',
    method: 'put',
    capabilities: ['update'],
    body: bodyOf(action),
    summary: SUMMARIES[action],
    response: { schema: ref('incidents_response'), description: 'the incident in its new status' },
    async run({ body, record, resource }) {
      // An item action always runs on its (locked) record.
      const incident = record!;
      const result = transition(incident, action, new Date(), attribute ? body.data.attributes?.[attribute] : undefined);
      if (typeof result === 'string') throw new ValidationError([{ pointer: '/data', code: 'invalid_transition', detail: result }]);
      return { document: { data: await resource.update(incident, result.changes, result.event) } };
    },
  });
}
