import { randomUUID } from 'node:crypto';
import type { OnCallHarness } from '../support/on-call-harness.js';

type Attributes = Record<string, unknown>;

/** A new escalation policy of the caller's team; its id. */
export async function createPolicy(h: OnCallHarness, attributes: Attributes = {}, principal?: Attributes): Promise<string> {
  const res = await h.create('escalation_policies', { name: `Policy ${randomUUID().slice(0, 8)}`, ...attributes }, { principal });
  if (res.status !== 201) throw new Error(`POST /v1/escalation_policies answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

export const levelIn = (h: OnCallHarness, policyId: string, attributes: Attributes, principal?: Attributes) =>
  h.call('POST', `/v1/escalation_policies/${policyId}/escalation_levels`, {
    body: { data: { type: 'escalation_levels', attributes: { position: 1, ...attributes } } },
    principal,
  });

export const pathIn = (h: OnCallHarness, policyId: string, attributes: Attributes, principal?: Attributes) =>
  h.call('POST', `/v1/escalation_policies/${policyId}/escalation_paths`, {
    body: { data: { type: 'escalation_paths', attributes: { name: `Path ${randomUUID().slice(0, 6)}`, ...attributes } } },
    principal,
  });

export const put = (h: OnCallHarness, path: string, type: string, attributes: Attributes, principal?: Attributes) =>
  h.call('PUT', path, { body: { data: { type, attributes } }, principal });
