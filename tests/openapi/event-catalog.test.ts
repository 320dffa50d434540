import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EVENT_FAMILIES, EVENT_TYPES, INTERNAL_EVENT_TYPES, eventOwner, isEventType, isInternalEventType } from '@firewatch/events';
import {
  INCIDENT_ACTIONS,
  INCIDENT_STATUSES,
  transition,
} from '../../services/incident-config/src/domain/incidents/incident-status.machine.js';

/** What this test reads of a kit declaration and of a service's registry. */
interface Declaration {
  type: string;
  name?: string;
  event?: string;
  operations?: readonly string[];
}
interface Registry {
  declarations: readonly Declaration[];
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CRUD = ['created', 'updated', 'deleted'];
const OPERATION_OF: Record<string, string> = { created: 'create', updated: 'update', deleted: 'delete' };

/**
 * Events that hand-written code writes, by the service whose outbox holds them (and so
 * whose broker user publishes them). They are not declarations, so they are named here
 * beside the code that writes them.
 */
const HAND_WRITTEN: Record<string, readonly string[]> = {
  // domain/api-key.service.ts; domain/user-events.ts (internal: on-call's read model).
  auth: [...CRUD.map((a) => `api_key.${a}`), ...CRUD.map((a) => `user.${a}`)],
  // data/shift-starts.repository.ts, the scheduler's announcements; domain/alerts-in/alert-intake.ts (alerts from
  // POST /v1/alerts and ingestion) and the alerts' acknowledge, resolve and snooze actions; jobs/alert-retrigger.job.ts
  // (alert.retriggered); domain/heartbeats/ (the ping action's heartbeat.pinged, the expiry job's heartbeat.expired);
  // domain/paging/notification-outcome.ts (alert.notification, each notification attempt's outcome).
  'on-call': [
    'shift.started',
    'heartbeat.pinged',
    'heartbeat.expired',
    ...['created', 'updated', 'acknowledged', 'resolved', 'snoozed', 'retriggered', 'notification'].map((a) => `alert.${a}`),
  ],
  // The dispatcher disables a failing endpoint in the webhooks database, whose outbox webhooks relays.
  webhooks: ['webhooks_endpoint.updated'],
};

/** Every file of a service's sources that builds a registry, with the service (`services/<name>/`) it belongs to. */
function registryFiles(): { service: string; file: string }[] {
  const services = path.join(root, 'services');
  return readdirSync(services).flatMap((service) => {
    const src = path.join(services, service, 'src');
    let files: string[];
    try {
      files = readdirSync(src, { recursive: true, encoding: 'utf8' });
    } catch {
      return [];
    }
    return files
      .filter((f) => f.endsWith('.ts') && readFileSync(path.join(src, f), 'utf8').includes('createResourceRegistry'))
      .map((f) => ({ service, file: path.join(src, f) }));
  });
}

const nameOf = (d: Declaration) => d.name ?? d.type;

/** The action events of incident-config's status actions: `incident.<event>` for every transition the machine allows. */
function incidentActionEvents(stem: string): string[] {
  const now = new Date();
  const events = INCIDENT_ACTIONS.flatMap((action) => INCIDENT_STATUSES.map((status) => transition({ status }, action, now))).flatMap(
    (t) => (typeof t === 'string' ? [] : [`${stem}.${t.event}`]),
  );
  return [...new Set(events)];
}

/** What each service writes: its declarations' `<event>.created|updated|deleted`, action events, hand-written events; each with where it comes from. */
let emitted: Map<string, { type: string; from: string }[]>;

beforeAll(async () => {
  emitted = new Map();
  const add = (service: string, type: string, from: string) => emitted.set(service, [...(emitted.get(service) ?? []), { type, from }]);
  for (const { service, file } of registryFiles()) {
    const { registry } = (await import(file)) as { registry?: Registry };
    if (!registry) throw new Error(`${path.relative(root, file)} builds a registry but exports none named registry`);
    for (const d of registry.declarations) {
      // A declaration emits the events of the operations it serves (alerts are never deleted, nor created by the kit).
      const serves = (action: string) => !d.operations || d.operations.includes(OPERATION_OF[action]);
      if (d.event) for (const action of CRUD) if (serves(action)) add(service, `${d.event}.${action}`, nameOf(d));
    }
    const incidents = registry.declarations.find((d) => service === 'incident-config' && nameOf(d) === 'incidents');
    if (incidents?.event) for (const type of incidentActionEvents(incidents.event)) add(service, type, 'incidents status actions');
  }
  for (const [service, types] of Object.entries(HAND_WRITTEN)) for (const type of types) add(service, type, 'hand-written');
});

describe('the event catalog against what the services emit', () => {
  it('reads the registry of every kit service', () => {
    expect([...emitted.keys()]).toEqual(expect.arrayContaining(['incident-config', 'communications', 'on-call', 'webhooks']));
    expect(emitted.get('incident-config')).toEqual(
      expect.arrayContaining([{ type: 'incident.resolved', from: 'incidents status actions' }]),
    );
  });

  // The outbox refuses a type outside the catalog at run time: the write fails, and with it the request.
  it('finds every type a service emits in the catalog', () => {
    const strays = [...emitted].flatMap(([service, events]) =>
      events
        .filter(({ type }) => !isEventType(type) && !isInternalEventType(type))
        .map(({ type, from }) => `${service}: ${type} (${from})`),
    );
    expect(strays).toEqual([]);
  });

  // Each service's broker user may publish only its own families: another's would be refused by the broker.
  it('finds every type a service emits among the families the catalog gives that service', () => {
    const foreign = [...emitted].flatMap(([service, events]) =>
      events
        .filter(({ type }) => eventOwner(type) !== undefined && eventOwner(type) !== service)
        .map(({ type, from }) => `${service}: ${type} (${from}) belongs to ${eventOwner(type)}`),
    );
    expect(foreign).toEqual([]);
  });

  it('leaves no type or family in the catalog that nothing emits', () => {
    const types = new Set([...emitted.values()].flat().map((e) => e.type));
    expect([...EVENT_TYPES, ...INTERNAL_EVENT_TYPES].filter((t) => !types.has(t))).toEqual([]);
    const families = new Set([...types].map((t) => t.slice(0, t.indexOf('.'))));
    expect(
      Object.values(EVENT_FAMILIES)
        .flat()
        .filter((f) => !families.has(f)),
    ).toEqual([]);
  });
});
