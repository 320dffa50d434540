import type { Row } from '@firewatch/resource-kit';
import type { EvaluationBudget } from '../matching/evaluation-budget.js';
import { mapAlertmanager } from './alertmanager.format.js';
import { UnmappablePayload, type Intent } from './payload-fields.js';

/**
 * Grafana alerting's webhook contact point (unified alerting, Grafana 8 on): Alertmanager's
 * webhook notification with Grafana's fields added (`orgId`, `title`, `state`, `message`,
 * and per alert `silenceURL`, `dashboardURL`, `panelURL`, `values`). Each entry of
 * `alerts` is firing or resolved and keyed by its `fingerprint`, as Alertmanager's are.
 * Legacy dashboard alerts (before unified alerting, removed in Grafana 11) sent one
 * `ruleName`/`evalMatches` object and no fingerprint: refused with a pointer to the
 * contact point that replaced them.
 */
export function mapGrafana(source: Row, payload: Row, budget: EvaluationBudget): Intent[] {
  if (!Array.isArray(payload.alerts) && ('ruleName' in payload || 'evalMatches' in payload))
    throw new UnmappablePayload(
      "This is a legacy Grafana dashboard alert; send Grafana alerting's webhook contact point (unified alerting) instead.",
    );
  return mapAlertmanager(source, payload, budget, 'Grafana');
}
