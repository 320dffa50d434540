import { counterOf, histogramOf, LATENCY_BUCKETS, observedGauge, type Metrics } from './process-metrics.js';

/** The outbox's backlog as a query of the service's database finds it. */
export interface OutboxBacklog {
  /** Events not yet published (at most the query's cap). */
  events: number;
  /** Age of the oldest of them, in seconds; null when none. */
  oldestAgeSeconds: number | null;
}

/** What the outbox relay reports after a batch the broker confirmed (`OutboxRelayOptions.observer`). */
export interface RelayObserver {
  published(events: number, seconds: number): void;
}

/** Scrapes closer together than this share one backlog query. */
const BACKLOG_CACHE_MS = 1000;
/** A query slower than this (the pool exhausted, the database away) reads as unknown: the scrape must not wait for it. */
export const BACKLOG_TIMEOUT_MS = 2000;

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The outbox on each scrape: events waiting (`firewatch_outbox_backlog_events`) and the age
 * of the oldest (`firewatch_outbox_oldest_event_age_seconds`), from one query of `backlog`
 * shared by both and by scrapes within a second. When the query fails or takes over
 * {@link BACKLOG_TIMEOUT_MS} (the database is down, the pool exhausted) both are NaN in
 * that scrape: unknown, never a reassuring 0. One outbox per process.
 */
export function observeOutbox(metrics: Metrics, backlog: () => Promise<OutboxBacklog>): void {
  let last: { at: number; value: Promise<OutboxBacklog> } | null = null;
  const read = () => {
    if (!last || Date.now() - last.at > BACKLOG_CACHE_MS) last = { at: Date.now(), value: within(backlog(), BACKLOG_TIMEOUT_MS) };
    return last.value;
  };
  const value = async (pick: (b: OutboxBacklog) => number) => {
    try {
      return pick(await read());
    } catch {
      return NaN;
    }
  };
  observedGauge(metrics, 'firewatch_outbox_backlog_events', 'Events written to the outbox and not yet published.', [], async (g) => {
    g.set(await value((b) => b.events));
  });
  observedGauge(
    metrics,
    'firewatch_outbox_oldest_event_age_seconds',
    'Age of the oldest unpublished event; 0 when none.',
    [],
    async (g) => {
      g.set(await value((b) => b.oldestAgeSeconds ?? 0));
    },
  );
}

/**
 * The relay's publishing, for `OutboxRelayOptions.observer`: events the broker confirmed
 * (`firewatch_outbox_published_events_total`) and the time of each batch from claim to
 * confirm (`firewatch_outbox_publish_duration_seconds`).
 */
export function relayObserver(metrics: Metrics): RelayObserver {
  const published = counterOf(metrics, 'firewatch_outbox_published_events_total', 'Outbox events the broker confirmed.', []);
  const duration = histogramOf(
    metrics,
    'firewatch_outbox_publish_duration_seconds',
    'Time of one relay batch, from claiming its rows to the broker confirming them.',
    [],
    LATENCY_BUCKETS,
  );
  return {
    published(events, seconds) {
      published.inc(events);
      duration.observe(seconds);
    },
  };
}
