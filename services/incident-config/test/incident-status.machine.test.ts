import {
  INCIDENT_ACTIONS,
  INCIDENT_STATUSES,
  initialState,
  transition,
  type IncidentAction,
  type IncidentStatus,
  type Transition,
} from '../src/domain/incidents/incident-status.machine.js';

const now = new Date('2026-11-23T12:00:00Z');
const earlier = new Date('2026-11-23T10:00:00Z');

/** Where each action leads from each status; a string is the start of the refusal. */
const EXPECTED: Record<IncidentStatus, Record<IncidentAction, IncidentStatus | string>> = {
  in_triage: {
    in_triage: 'The incident is already in triage',
    mitigate: 'mitigated',
    resolve: 'resolved',
    cancel: 'cancelled',
    restart: 'started',
  },
  started: {
    in_triage: 'in_triage',
    mitigate: 'mitigated',
    resolve: 'resolved',
    cancel: 'cancelled',
    restart: 'The incident is already started',
  },
  mitigated: {
    in_triage: 'A mitigated incident cannot be put in triage',
    mitigate: 'The incident is already mitigated',
    resolve: 'resolved',
    cancel: 'cancelled',
    restart: 'started',
  },
  resolved: {
    in_triage: 'A resolved incident cannot be put in triage',
    mitigate: 'A resolved incident cannot be mitigated',
    resolve: 'The incident is already resolved',
    cancel: 'A resolved incident cannot be cancelled',
    restart: 'started',
  },
  cancelled: {
    in_triage: 'A cancelled incident cannot be put in triage',
    mitigate: 'A cancelled incident cannot be mitigated',
    resolve: 'A cancelled incident cannot be resolved',
    cancel: 'The incident is already cancelled',
    restart: 'started',
  },
};

const EVENTS: Record<IncidentAction, string> = {
  in_triage: 'in_triage',
  mitigate: 'mitigated',
  resolve: 'resolved',
  cancel: 'cancelled',
  restart: 'restarted',
};

describe('incident status machine', () => {
  const pairs = INCIDENT_STATUSES.flatMap((status) => INCIDENT_ACTIONS.map((action) => [status, action] as const));

  it('has an expectation for every status and action', () => {
    expect(pairs).toHaveLength(25);
  });

  it.each(pairs)('from %s, %s', (status, action) => {
    const expected = EXPECTED[status][action];
    const result = transition({ status, started_at: earlier }, action, now, 'why');
    if ((INCIDENT_STATUSES as readonly string[]).includes(expected)) {
      expect(typeof result).toBe('object');
      expect((result as Transition).changes.status).toBe(expected);
      expect((result as Transition).event).toBe(EVENTS[action]);
    } else {
      expect(result).toBe(`${expected}.`);
    }
  });

  it('stamps the time and keeps the message of mitigate, resolve and cancel', () => {
    expect(transition({ status: 'started' }, 'mitigate', now, 'rolled back')).toEqual({
      changes: { status: 'mitigated', mitigated_at: now, mitigation_message: 'rolled back' },
      event: 'mitigated',
    });
    expect(transition({ status: 'started' }, 'cancel', now)).toEqual({
      changes: { status: 'cancelled', cancelled_at: now, cancellation_message: null },
      event: 'cancelled',
    });
    expect(transition({ status: 'started' }, 'in_triage', now)).toEqual({
      changes: { status: 'in_triage', in_triage_at: now },
      event: 'in_triage',
    });
  });

  it('resolving keeps an earlier mitigation time, or takes its own', () => {
    expect((transition({ status: 'mitigated', mitigated_at: earlier }, 'resolve', now) as Transition).changes).toMatchObject({
      resolved_at: now,
      mitigated_at: earlier,
    });
    expect((transition({ status: 'started', mitigated_at: null }, 'resolve', now, 'fixed') as Transition).changes).toEqual({
      status: 'resolved',
      resolved_at: now,
      resolution_message: 'fixed',
      mitigated_at: now,
    });
  });

  it('gives an incident leaving triage for an end its start, keeping one it had', () => {
    for (const action of ['mitigate', 'resolve', 'cancel'] as const) {
      expect((transition({ status: 'in_triage', started_at: null }, action, now) as Transition).changes.started_at).toBe(now);
      expect((transition({ status: 'in_triage', started_at: earlier }, action, now) as Transition).changes.started_at).toBe(earlier);
    }
  });

  it('restarting clears the ends and keeps the start, or starts a triaged incident now', () => {
    const fromResolved = (transition({ status: 'resolved', started_at: earlier }, 'restart', now) as Transition).changes;
    expect(fromResolved).toEqual({
      status: 'started',
      started_at: earlier,
      mitigated_at: null,
      mitigation_message: null,
      resolved_at: null,
      resolution_message: null,
      cancelled_at: null,
      cancellation_message: null,
    });
    expect((transition({ status: 'in_triage', started_at: null }, 'restart', now) as Transition).changes.started_at).toBe(now);
  });

  it('a new incident starts in triage or started, stamped', () => {
    expect(initialState('in_triage', now)).toEqual({ status: 'in_triage', in_triage_at: now });
    expect(initialState('started', now)).toEqual({ status: 'started', started_at: now });
  });
});
