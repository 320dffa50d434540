import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type Metric } from 'prom-client';

/**
 * One process's metrics: its own registry (never prom-client's global one, so two apps in
 * one test process keep apart), every series labelled with the process's name.
 */
export interface Metrics {
  readonly registry: Registry;
  /** The `service` label of every series. */
  readonly service: string;
  /** The Prometheus text exposition of every metric (collect callbacks run now). */
  scrape(): Promise<{ contentType: string; body: string }>;
}

/** Options of {@link createMetrics}. */
export interface MetricsOptions {
  /** The process's name: `gateway`, `auth`, `on-call`, ... */
  service: string;
  /** Node's process metrics (CPU, memory, event-loop lag, GC, handles); default true. */
  defaultMetrics?: boolean;
}

/** A registry for one process, with Node's default process metrics unless turned off. */
export function createMetrics({ service, defaultMetrics = true }: MetricsOptions): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  // prom-client samples the event loop's delay with a 10 ms timer by default: 3 ms of CPU a
  // second in every process, idle or not (the gateway's and a bare node's alike). A 100 ms
  // timer costs next to nothing, and the lag it reports still shows a loop held 0.2 s
  // (the alert in docs/operations.md); the series' names and labels are the same.
  if (defaultMetrics) collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 });
  return {
    registry,
    service,
    async scrape() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

type Kind<M> = new (config: never) => M;

/**
 * The metric `name` of the registry, made by `create` the first time: each helper of this
 * lib may be called more than once per process (two pools, two relays) and gets one metric.
 */
export function metricOf<M extends Metric>(metrics: Metrics, name: string, kind: Kind<M>, create: () => M): M {
  const found = metrics.registry.getSingleMetric(name);
  if (found === undefined) return create();
  if (!(found instanceof kind)) throw new Error(`metric ${name} exists with another type`);
  return found;
}

/** A counter of the registry, made once. */
export function counterOf<L extends string>(metrics: Metrics, name: string, help: string, labelNames: readonly L[]): Counter<L> {
  return metricOf(metrics, name, Counter<L>, () => new Counter({ name, help, labelNames, registers: [metrics.registry] }));
}

/** A histogram of the registry, made once. */
export function histogramOf<L extends string>(
  metrics: Metrics,
  name: string,
  help: string,
  labelNames: readonly L[],
  buckets: number[],
): Histogram<L> {
  return metricOf(metrics, name, Histogram<L>, () => new Histogram({ name, help, labelNames, buckets, registers: [metrics.registry] }));
}

type GaugeSource<L extends string> = (gauge: Gauge<L>) => void | Promise<void>;
const sourcesOf = new WeakMap<Gauge<string>, GaugeSource<string>[]>();

/**
 * A gauge of the registry, made once, whose values the `source`s set on each scrape (after
 * a reset, so a series whose source stopped answering disappears rather than lies).
 * A failing source leaves its own series out, never the scrape.
 */
export function observedGauge<L extends string>(
  metrics: Metrics,
  name: string,
  help: string,
  labelNames: readonly L[],
  source: GaugeSource<L>,
): Gauge<L> {
  const gauge = metricOf(
    metrics,
    name,
    Gauge<L>,
    () =>
      new Gauge<L>({
        name,
        help,
        labelNames,
        registers: [metrics.registry],
        async collect() {
          this.reset();
          for (const collect of sourcesOf.get(this as Gauge<string>) ?? []) await Promise.resolve(collect(this)).catch(() => undefined);
        },
      }),
  );
  const sources = sourcesOf.get(gauge as Gauge<string>) ?? [];
  sources.push(source as GaugeSource<string>);
  sourcesOf.set(gauge as Gauge<string>, sources);
  return gauge;
}

/** Latency buckets in seconds, from 5 ms to 10 s: an API request, a publish, a webhook. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
