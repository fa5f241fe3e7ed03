import { Router, type RequestHandler } from "express";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { Engine } from "@benchwright/engine";

/** Requests no operation of the contract matched share this label: a scanner cannot make a series per path it tries. */
export const UNMATCHED = "unmatched";

/** Seconds; prepare and run answer when the step ends, which may take an hour. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600];
const STEP_BUCKETS = [0.1, 0.5, 1, 5, 10, 30, 60, 300, 600, 1800, 3600, 7200, 21600];

/** Every metric the server exposes, by name, with the help its exposition gives. */
const HELP = {
  benchwright_http_requests_total: "Requests answered, by the contract's operationId (`unmatched` for no operation) and status",
  benchwright_http_request_duration_seconds: "Time from a request's arrival to the end of its answer, by operationId",
  benchwright_steps_total: "Step attempts this process followed to their end, by step (prepare, run) and outcome (succeeded, failed)",
  benchwright_step_duration_seconds: "Duration of the step attempts this process followed to their end, as recorded, by step and outcome",
  benchwright_steps_running: "Steps this process follows now",
  benchwright_step_queue_depth: "Step jobs sent and not yet taken: pg-boss's shared queue on PostgreSQL, this process's own on the embedded database",
  benchwright_ssh_connections_open: "SSH connections of this process's pool alive now",
  benchwright_cloud_resources_live:
    "Cloud resources recorded and not destroyed, by configuration (provider), driver and kind, over every process sharing the database",
  benchwright_event_streams_open: "GET /api/v1/events streams this process holds open; past BENCHWRIGHT_MAX_EVENT_SUBSCRIBERS more are refused",
} as const;
type MetricName = keyof typeof HELP;

/** What the metrics read of the event streams (api/event-stream.ts's SubscriberCap): how many are open. */
interface OpenStreams {
  readonly open: number;
}

/**
 * The server's Prometheus metrics, in a registry of its own (several apps in one process,
 * as in the tests, do not share counters). Counters are this process's; the gauges are read
 * from the engine when scraped.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly #requests = counter(this.registry, "benchwright_http_requests_total", ["operation", "status"]);
  readonly #latency = histogram(this.registry, "benchwright_http_request_duration_seconds", ["operation"], REQUEST_BUCKETS);
  readonly #steps = counter(this.registry, "benchwright_steps_total", ["step", "outcome"]);
  readonly #stepDuration = histogram(this.registry, "benchwright_step_duration_seconds", ["step", "outcome"], STEP_BUCKETS);
  readonly #running = gauge(this.registry, "benchwright_steps_running");
  readonly #queueDepth = gauge(this.registry, "benchwright_step_queue_depth", ["queue"]);
  readonly #ssh = gauge(this.registry, "benchwright_ssh_connections_open");
  readonly #resources = gauge(this.registry, "benchwright_cloud_resources_live", ["provider", "driver", "kind"]);
  readonly #eventStreams = gauge(this.registry, "benchwright_event_streams_open");
  readonly #streams: OpenStreams | undefined;
  constructor(
    private readonly engine: Engine,
    options: { processMetrics?: boolean; eventStreams?: OpenStreams } = {},
  ) {
    this.#streams = options.eventStreams;
    engine.onStepEnded(({ step, outcome, duration }) => {
      this.#steps.inc({ step, outcome });
      this.#stepDuration.observe({ step, outcome }, duration);
    });
    // Node's own (heap, event loop, CPU): one set per process, so only the process's server asks for them.
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
  }

  /** Counts each request once its answer has ended (or its client went away), under `operationOf(req)`. */
  requests(operationOf: (req: Parameters<RequestHandler>[0]) => string): RequestHandler {
    return (req, res, next) => {
      const start = process.hrtime.bigint();
      res.once("close", () => {
        const operation = operationOf(req);
        this.#requests.inc({ operation, status: String(res.statusCode) });
        this.#latency.observe({ operation }, Number(process.hrtime.bigint() - start) / 1e9);
      });
      next();
    };
  }

  /** The text exposition, with the gauges read now. A figure the database cannot give now is left out. */
  async render(): Promise<string> {
    const stats = await this.engine.stats();
    this.#running.set(stats.stepsRunning);
    this.#ssh.set(stats.sshConnectionsOpen);
    this.#eventStreams.set(this.#streams?.open ?? 0);
    // Reset first: a kind whose last resource was destroyed goes, rather than staying at its last count.
    this.#queueDepth.reset();
    this.#resources.reset();
    if (stats.queue.depth !== undefined) this.#queueDepth.set({ queue: stats.queue.kind }, stats.queue.depth);
    for (const r of stats.liveResources ?? []) this.#resources.set({ provider: r.provider, driver: r.driver, kind: r.kind }, r.count);
    return this.registry.metrics();
  }

  /**
   * `GET /metrics`, outside the API like /healthz; it needs an admin's token (the counts tell
   * what the service does: see requireAdminToken), unless the operator made it public.
   */
  router(guard: RequestHandler | undefined): Router {
    const r = Router();
    const handlers: RequestHandler[] = guard ? [guard] : [];
    r.get("/metrics", ...handlers, async (_req, res) => {
      const text = await this.render();
      res.status(200).type(this.registry.contentType).send(text);
    });
    return r;
  }
}

// Each metric is made in the server's own registry only (never prom-client's global one).
function counter<L extends string>(registry: Registry, name: MetricName, labelNames: readonly L[] = []): Counter<L> {
  return new Counter({ name, help: HELP[name], labelNames, registers: [registry] });
}

function histogram<L extends string>(registry: Registry, name: MetricName, labelNames: readonly L[], buckets: number[]): Histogram<L> {
  return new Histogram({ name, help: HELP[name], labelNames, buckets, registers: [registry] });
}

function gauge<L extends string>(registry: Registry, name: MetricName, labelNames: readonly L[] = []): Gauge<L> {
  return new Gauge({ name, help: HELP[name], labelNames, registers: [registry] });
}
