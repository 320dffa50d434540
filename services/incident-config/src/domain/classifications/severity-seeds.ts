import type { Row } from '@firewatch/resource-kit';

/**
 * The severities a team starts with (docs/api-contract.md §1, Severities): SEV0 the worst,
 * positions 0 to 3, ordered as lists show them. The team may change or delete them.
 */
export const STARTING_SEVERITIES: readonly Row[] = [
  {
    name: 'SEV0',
    slug: 'sev0',
    severity: 'critical',
    color: '#D0021B',
    position: 0,
    description: 'Critical: the product is down or data is lost for many customers. All hands, now.',
  },
  {
    name: 'SEV1',
    slug: 'sev1',
    severity: 'high',
    color: '#F5A623',
    position: 1,
    description: 'High: a core feature is broken or badly degraded for many customers.',
  },
  {
    name: 'SEV2',
    slug: 'sev2',
    severity: 'medium',
    color: '#F8E71C',
    position: 2,
    description: 'Medium: a feature is degraded or broken for some customers; a workaround exists.',
  },
  {
    name: 'SEV3',
    slug: 'sev3',
    severity: 'low',
    color: '#4A90E2',
    position: 3,
    description: 'Low: a minor issue with little customer impact.',
  },
];
