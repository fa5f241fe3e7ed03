import { Router, type RequestHandler } from "express";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { Engine } from "@benchwright/engine";
import type { SubscriberCap } from "../api/event-stream.js";

/** Requests no operation of the contract matched share this label: a scanner cannot make a series per path it tries. */
export const UNMATCHED = "unmatched";

/** Seconds; prepare and run answer when the step ends, which may take an hour. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600];
const STEP_BUCKETS = [0.1, 0.5, 1, 5, 10, 30, 60, 300, 600, 1800, 3600, 7200, 21600];

/**
 * The server's Prometheus metrics, in a registry of its own (several apps in one process,
 * as in the tests, do not share counters). Counters are this process's; the gauges are read
 * from the engine when scraped.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly #requests = new Counter({
    name: "benchwright_http_requests_total",
    help: "Requests answered, by the contract's operationId (`unmatched` for no operation) and status",
    labelNames: ["operation", "status"],
    registers: [this.registry],
  });
  readonly #latency = new Histogram({
    name: "benchwright_http_request_duration_seconds",
    help: "Time from a request's arrival to the end of its answer, by operationId",
    labelNames: ["operation"],
    buckets: REQUEST_BUCKETS,
    registers: [this.registry],
  });
  readonly #steps = new Counter({
    name: "benchwright_steps_total",
    help: "Step attempts this process followed to their end, by step (prepare, run) and outcome (succeeded, failed)",
    labelNames: ["step", "outcome"],
    registers: [this.registry],
  });
  readonly #stepDuration = new Histogram({
    name: "benchwright_step_duration_seconds",
    help: "Duration of the step attempts this process followed to their end, as recorded, by step and outcome",
    labelNames: ["step", "outcome"],
    buckets: STEP_BUCKETS,
    registers: [this.registry],
  });
  readonly #running = new Gauge({ name: "benchwright_steps_running", help: "Steps this process follows now", registers: [this.registry] });
  readonly #queueDepth = new Gauge({
    name: "benchwright_step_queue_depth",
    help: "Step jobs sent and not yet taken: pg-boss's shared queue on PostgreSQL, this process's own on the embedded database",
    labelNames: ["queue"],
    registers: [this.registry],
  });
  readonly #ssh = new Gauge({ name: "benchwright_ssh_connections_open", help: "SSH connections of this process's pool alive now", registers: [this.registry] });
  readonly #resources = new Gauge({
    name: "benchwright_cloud_resources_live",
    help: "Cloud resources recorded and not destroyed, by configuration (provider), driver and kind, over every process sharing the database",
    labelNames: ["provider", "driver", "kind"],
    registers: [this.registry],
  });
  readonly #eventStreams = new Gauge({
    name: "benchwright_event_streams_open",
    help: "GET /api/v1/events streams this process holds open; past BENCHWRIGHT_MAX_EVENT_SUBSCRIBERS more are refused",
    registers: [this.registry],
  });
  readonly #streams: SubscriberCap | undefined;
  constructor(
    private readonly engine: Engine,
    options: { processMetrics?: boolean; eventStreams?: SubscriberCap } = {},
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
   * `GET /metrics`, outside the API like /healthz; it needs the API token like every operation
   * (the counts tell what the service does), unless the operator made it public.
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
