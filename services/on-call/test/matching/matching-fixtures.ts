import type { AlertInput, Condition } from '../../src/domain/matching/index.js';

/** Records and alerts the matching tests share. */
export const U_HIGH = '0b0c3a56-6d0e-4f39-9a3e-4c1b5a1e0001';
export const U_LOW = '0b0c3a56-6d0e-4f39-9a3e-4c1b5a1e0002';
export const SRC_DD = '1b0c3a56-6d0e-4f39-9a3e-4c1b5a1e0001';
export const SRC_OTHER = '1b0c3a56-6d0e-4f39-9a3e-4c1b5a1e0002';
export const SVC_A = '2b0c3a56-6d0e-4f39-9a3e-4c1b5a1e0001';
export const SVC_B = '2b0c3a56-6d0e-4f39-9a3e-4c1b5a1e0002';
export const SVC_X = '2b0c3a56-6d0e-4f39-9a3e-4c1b5a1e0003';
export const G_OPS = '3b0c3a56-6d0e-4f39-9a3e-4c1b5a1e0001';
export const G_X = '3b0c3a56-6d0e-4f39-9a3e-4c1b5a1e0002';
export const F_ENV = 'env';
export const F_BLANK = 'blank';

/** An alert with every kind of value. */
export const FULL: AlertInput = {
  summary: 'Disk full on db-1',
  description: null,
  external_url: 'https://monitor.example/alerts/1',
  urgency_id: U_HIGH,
  source_id: SRC_DD,
  source: 'api',
  service_ids: [SVC_A, SVC_B],
  group_ids: [G_OPS],
  fields: { [F_ENV]: 'production', [F_BLANK]: '' },
  payload: {
    priority: 'P1',
    count: 42,
    ratio: 0.5,
    ok: true,
    nothing: null,
    empty: '',
    tags: ['db', 'disk'],
    labels: { team: 'ops' },
    host: 'db-1.eu',
    none: [],
  },
};

/** An alert with nothing set. */
export const BARE: AlertInput = {};

/** An alert from a non-integration source, known by its alias only. */
export const MANUAL: AlertInput = { source: 'manual' };

/** A condition that holds for FULL and BARE alike, and one that holds for neither. */
export const ALWAYS: Condition = { kind: 'payload', operator: 'is_not_set', property_field_name: '$.never_there' };
export const NEVER: Condition = { kind: 'payload', operator: 'is_set', property_field_name: '$.never_there' };
