import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type { Catalog } from "@benchwright/catalog";
import { CatalogSource } from "./catalog-source.js";
import { createDataDir } from "./data-dir.js";
import type {
  Benchmark, Execution, ExecutionCreate, Provider as ProviderView, Session, SessionCreate, StepAttempt, StepResult, SweepReport, SweepRequest,
} from "@benchwright/contract";
import { configError, problem } from "./config/config-problem.js";
import { loadProviderConfigs, resolveInline, resolveStored, type ProviderConfigFile } from "./config/provider-config.js";
import { parseProviderConfig } from "./config/parse-provider-config.js";
import type { EngineLog } from "./engine-log.js";
import { BenchwrightError } from "./errors.js";
import { logStoreFor, openStepLog, type LogStore, type StepLogView } from "./logs/index.js";
import { MachineAccess } from "./machines/machine-access.js";
import type { OutboundPolicy } from "./net/outbound-guard.js";
import type { ProviderOptions } from "./providers/registry.js";
import type { Machine } from "./providers/provider.js";
import { SecretBox } from "./secrets/secret-box.js";
import { credentialsTooShort, MIN_SECRET_LENGTH, scrubberOf } from "./secrets/scrub.js";
import { openDb, type Db } from "./store/db.js";
import { migrate } from "./store/migrations.js";
import { InProcessQueue } from "./queue/in-process-queue.js";
import type { StepQueue } from "./queue/step-queue.js";
import { SESSION_DELETED, Store, type ExecutionRow, type LiveResourceCount, type SessionRow, type StepKind } from "./store/store.js";
import { Steps, type StepEnded } from "./steps/steps.js";
import type { StepWorkerOptions } from "./steps/step-worker.js";
import { executionView, executionViews, sessionView } from "./views/execution-views.js";
import { benchmarkView, paramViews } from "./views/benchmark-views.js";
import { providerFailure, SessionMachines } from "./machines/session-machines.js";
import { ReadCache } from "./read-cache.js";
import { executionCursor, sessionCursor } from "./lists/cursor.js";
import { executionWhereOf, pageOf, sessionWhereOf, type ExecutionListQuery, type MetricsExportQuery, type Page, type SessionListQuery } from "./lists/list-query.js";
import { metricRowsOf, type MetricRow } from "./lists/metric-rows.js";
import { compareExecutions, type Comparison } from "./results/comparison.js";
import { repetitionPlanOf } from "./results/repetitions.js";

export interface EngineOptions {
  /** Embedded database, logs, local work dirs and the generated secret key live here. */
  dataDir: string;
  /** `providers/` (Form A configurations) and `benchmarks/` (extra definitions) live here. */
  configDir: string;
  /** PostgreSQL instead of the embedded PGlite. */
  databaseUrl?: string;
  /** Keep the embedded database in memory (tests). */
  inMemory?: boolean;
  /** Lines for the operator, with what each concerns (session, execution, step); never given a credential. */
  log?: EngineLog;
  providers?: ProviderOptions;
  /**
   * Which addresses the engine's own outbound calls (cloud APIs) may reach: the Internet's only
   * by default; the server's BENCHWRIGHT_ALLOW_PRIVATE_ENDPOINTS allows private ones too.
   */
  outbound?: OutboundPolicy;
  secrets?: SecretBox;
  /** Whether this process runs steps (a worker); default true. A server that only serves leaves them to workers. */
  work?: boolean;
  /** pg-boss's schema on PostgreSQL; default `<search_path schema>_queue` or `benchwright_queue`. */
  queueSchema?: string;
  /** Lease, renewal and sweep timings of the step worker (tests shorten them). */
  worker?: StepWorkerOptions;
  /** The most seconds a session's `step_timeout` may give a step; default DEFAULT_MAX_STEP_TIMEOUT_S. */
  maxStepTimeoutS?: number;
}

/** A day: long enough for any benchmark here, short enough that a stuck step does not hold a machine for good. */
export const DEFAULT_MAX_STEP_TIMEOUT_S = 86_400;

/** See Engine.stats. */
export interface EngineStats {
  /** Steps this process follows now. */
  stepsRunning: number;
  /** Step jobs sent and not yet taken: pg-boss's queue on PostgreSQL (shared), this process's own on the embedded default. */
  queue: { kind: StepQueue["kind"]; depth: number | undefined };
  /** SSH connections of this process's pool alive now. */
  sshConnectionsOpen: number;
  /** Cloud resources the ledger holds as not destroyed, over every process sharing the database. */
  liveResources: LiveResourceCount[] | undefined;
}

/** The domain behind the REST interface: one method per operation, no HTTP in it. */
export class Engine {
  private readonly steps: Steps;
  private readonly logs: LogStore;
  private readonly machines: SessionMachines;
  private resuming: Promise<void> = Promise.resolve();
  private closing = false;
  /** The read views, kept while the tables they show are unchanged (see ReadCache). */
  private readonly reads = new ReadCache(() => this.store.db.writes ?? this.store.db.commits, ["sessions", "executions", "steps"]);

  private constructor(
    private readonly options: EngineOptions,
    readonly store: Store,
    private readonly catalogs: CatalogSource,
    private readonly secrets: SecretBox,
    private readonly access: MachineAccess,
    private readonly queue: StepQueue,
    private readonly log: EngineLog,
  ) {
    this.logs = logStoreFor(store.db, options.dataDir);
    this.machines = new SessionMachines({ store, secrets, access, dataDir: options.dataDir, log, providers: options.providers, outbound: options.outbound });
    this.steps = new Steps({
      store,
      catalog: () => catalogs.current(),
      access,
      machines: this.machines,
      queue,
      logs: this.logs,
      dataDir: options.dataDir,
      derive: (purpose) => secrets.derive(purpose),
      log,
      work: options.work,
      worker: options.worker,
    });
  }

  static async open(options: EngineOptions): Promise<Engine> {
    const log = options.log ?? (() => {});
    createDataDir(options.dataDir);
    const db: Db = await openDb({
      databaseUrl: options.databaseUrl,
      pgliteDir: options.inMemory ? "memory://" : join(options.dataDir, "db"),
    });
    await migrate(db);
    const store = new Store(db);
    const catalogs = new CatalogSource(join(options.configDir, "benchmarks"), log);
    const secrets = options.secrets ?? SecretBox.fromEnvironment(options.dataDir);
    const access = new MachineAccess(store);
    const queue: StepQueue = options.databaseUrl
      ? await openPgBossQueue(options.databaseUrl, options.queueSchema, log)
      : new InProcessQueue();
    const engine = new Engine(options, store, catalogs, secrets, access, queue, log);
    engine.startWorking();
    return engine;
  }

  /**
   * Stops: takes no more steps and hands back those it follows (they go on detached on their
   * hosts, and another worker, or this one restarted, takes them up), within `deadlineMs`.
   */
  async close(deadlineMs = 10_000): Promise<void> {
    this.closing = true;
    // Refuses new steps at once; hands back those followed once an interrupted deletion is finished.
    const stepsStopped = this.steps.stop(Math.max(0, deadlineMs - 1_000));
    await this.resuming;
    await stepsStopped;
    await this.queue.stop();
    await this.access.close();
    await this.store.db.close();
  }

  /** For /readyz: the database answers, its schema is current, and the step queue delivers. */
  async ready(): Promise<{ ready: boolean; database: boolean; queue: boolean }> {
    const database = await this.store.db.query("SELECT 1").then(() => true, () => false);
    const queue = this.queue.running && !this.closing;
    return { ready: database && queue, database, queue };
  }

  /** Calls `listener` as each step this process follows ends (succeeded or failed, not handed back); returns its removal. */
  onStepEnded(listener: (ended: StepEnded) => void): () => void {
    return this.steps.onEnded(listener);
  }

  /**
   * What this process holds now, read when metrics are scraped. A figure that needs the
   * database is left out while it does not answer: the others still tell something.
   */
  async stats(): Promise<EngineStats> {
    const [queueDepth, liveResources] = await Promise.all([
      this.queue.depth().catch(() => undefined),
      this.store.liveResourceCounts().catch(() => undefined),
    ]);
    return {
      stepsRunning: this.steps.running,
      queue: { kind: this.queue.kind, depth: queueDepth },
      sshConnectionsOpen: this.access.sshConnectionsOpen,
      liveResources,
    };
  }

  /** The catalog as it is now, definitions dropped into the config dir included. */
  get catalog(): Catalog {
    return this.catalogs.current();
  }

  // ---- benchmarks and providers

  listBenchmarks(): Benchmark[] {
    return this.catalog.tools().map((t) => benchmarkView(t));
  }

  getBenchmark(id: string): Benchmark {
    const tool = this.catalog.tool(id);
    if (!tool) throw new BenchwrightError("not_found", `No benchmark '${id}'`, { choices: this.catalog.tools().map((t) => t.id) });
    return benchmarkView(tool);
  }

  listProviders(): ProviderView[] {
    return this.providerConfigs().map((c) => ({
      name: c.name,
      service_types: Object.keys(c.services),
      class: c.providerClass,
      ...(typeof c.provider.driver === "string" ? { driver: c.provider.driver } : {}),
      ...(typeof c.provider.region === "string" ? { region: c.provider.region } : {}),
    }));
  }

  private providerConfigs(): ProviderConfigFile[] {
    return loadProviderConfigs(this.options.configDir, (file, e) => this.log(`skipping provider configuration ${file}: ${e.message}`, { level: "warn" }));
  }

  // ---- sessions

  async createSession(body: SessionCreate): Promise<Session> {
    const resolved =
      "config" in body && body.config
        ? resolveInline(body.config as Record<string, unknown>)
        : resolveStored(this.providerConfigs(), (body as { provider: string }).provider, formAService(body as FormAServices));
    const config = parseProviderConfig(resolved);
    // Refused here, not where a session's configuration is read again: sessions made before stay usable.
    const problems = credentialsTooShort(resolved).map((at) => problem(at, "is too short to be masked in logs", `must be at least ${MIN_SECRET_LENGTH} characters`));
    const maxStepTimeoutS = this.options.maxStepTimeoutS ?? DEFAULT_MAX_STEP_TIMEOUT_S;
    if (config.stepTimeoutS !== undefined && config.stepTimeoutS > maxStepTimeoutS) {
      problems.push(problem([config.serviceType, "step_timeout"], `is ${config.stepTimeoutS}`, `must be at most ${maxStepTimeoutS} seconds, this server's bound`));
    }
    if (problems.length) throw configError(`The ${config.class} configuration '${config.name}' cannot be used`, problems);
    const row: Omit<SessionRow, "deleted_at"> = {
      id: randomUUID(),
      provider_name: config.name,
      service_type: config.serviceType,
      provider_class: config.class,
      driver: config.class === "cloud" ? config.driver : null,
      region: config.class === "cloud" ? (config.region ?? null) : null,
      // As written: configOf reads it with the same parser, whichever process needs it later.
      config_sealed: this.secrets.seal(resolved),
      state: "active",
      created: new Date(),
    };
    await this.store.insertSession(row);
    this.log(`session ${row.id} created on ${config.class} configuration ${config.name}/${config.serviceType}`, { session_id: row.id });
    return sessionView({ ...row, deleted_at: null }, []);
  }

  /** The sessions that match the query's filters, the live ones unless its `state` says otherwise (a page of them with its `limit`), oldest first. */
  async listSessions(query: SessionListQuery = {}): Promise<Page<Session>> {
    return this.reads.get(`sessions:${JSON.stringify(query)}`, async () => {
      const where = sessionWhereOf(query);
      // The page's sessions and their executions, in two queries side by side.
      const [rows, executions] = await Promise.all([this.store.findSessions(where), this.store.executionsWithSteps({ sessions: where })]);
      const page = pageOf(rows, query.limit, (last) => sessionCursor(last.key));
      const bySession = new Map<string, Execution[]>(page.items.map((r) => [r.id, []]));
      for (const e of executions) bySession.get(e.session_id)?.push(executionView(e, e.steps));
      return { items: page.items.map((r) => sessionView(r, bySession.get(r.id)!)), next: page.next };
    });
  }

  /** A session in any state: a deleted one's record outlives it, as its executions' results do. */
  async getSession(id: string): Promise<Session> {
    return this.reads.get(`session:${id}`, async () => {
      const [row] = await this.store.sessionSummaries(["active", "deleting", "deleted"], id);
      if (!row) throw new BenchwrightError("not_found", `No session ${id}`);
      return sessionView(row, executionViews(await this.store.executionsWithSteps({ sessionIds: [id] })));
    });
  }

  /** Stops its running steps, removes its work dirs, destroys what its provider created. */
  async deleteSession(id: string): Promise<void> {
    const row = await this.liveSession(id);
    if (!(await this.store.setSessionState(id, ["active", "deleting"], "deleting"))) {
      throw new BenchwrightError("wrong_state", `Session ${id} is ${row.state}`, { state: row.state });
    }
    const executions = await this.store.listExecutions([id]);
    const ids = executions.map((e) => e.id);
    // Steps followed here end now; those followed by other processes end when their owners
    // see the session's state (at their next lease renewal), or when their processes die below.
    await this.steps.stopExecutions(ids);
    const config = this.machines.configOf(row);
    const ctx = this.machines.context(row, config);
    try {
      const machines = await this.machines.known(config, ctx);
      const failed = (machine: Machine, e: Error) =>
        this.log(`session ${id}: could not remove work dirs on ${machine.id}: ${scrubberOf(config).scrub(e.message)}`, { session_id: id, level: "warn" });
      await this.steps.removeWorkDirs(id, machines, ids, failed);
      await this.steps.waitEnded(ids, STEP_END_WAIT_MS);
      // Whatever no owner recorded in time (an owner that died, or steps on destroyed machines) ends here.
      await this.steps.abandon(ids, SESSION_DELETED);
      // Again, now that no step of the session can begin or launch (Store.beginStep, steps/measure.ts):
      // a step begun just before the session became `deleting` may have launched after the first pass.
      await this.steps.removeWorkDirs(id, machines, ids, failed);
      // Under the session's machines lock: a destroy never races a prepare that creates them, in any process.
      await this.store.db.exclusive(`machines:${id}`, () => this.machines.provider(config).destroy(ctx));
    } catch (e) {
      throw providerFailure(e, `Deleting session ${id} failed; DELETE it again to retry`, config);
    }
    await this.store.setSessionState(id, ["deleting"], "deleted");
    this.log(`session ${id} deleted`, { session_id: id });
  }

  // ---- executions

  async createExecution(sessionId: string, body: ExecutionCreate): Promise<Execution> {
    await this.liveSession(sessionId);
    const tool = this.catalog.tool(body.tool);
    if (!tool) {
      throw new BenchwrightError("unknown_tool", `No tool '${body.tool}'`, { choices: this.catalog.tools().map((t) => t.id) });
    }
    const workload = tool.workloads.find((w) => w.id === body.workload);
    if (!workload) {
      throw new BenchwrightError("unknown_workload", `Tool '${tool.id}' has no workload '${body.workload}'`, {
        choices: tool.workloads.map((w) => w.id),
      });
    }
    const params = this.catalog.params(tool.id, workload.id, body.params);
    if (params.problems.length) {
      throw new BenchwrightError(
        "validation_failed",
        `params of ${tool.id}/${workload.id}: ${params.problems.map((p) => `${p.name} ${p.message}`).join("; ")}`,
        {
          errors: params.problems.map((p) => ({ path: `/body/params/${jsonPointerToken(p.name)}`, message: p.message })),
          parameters: paramViews(workload.params),
        },
      );
    }
    const row = {
      id: randomUUID(),
      session_id: sessionId,
      tool_id: tool.id,
      workload_id: workload.id,
      params: params.values,
      repetitions: repetitionPlanOf(body.repetitions),
      test: {
        tool_id: tool.id,
        workload_id: workload.id,
        tool_name: tool.tool_name,
        workload_name: workload.workload_name,
        workload_description: workload.workload_description,
      },
      state: "created" as const,
      created: new Date(),
    };
    await this.store.insertExecution(row);
    return executionView({ ...row, exec_env: { vms: [] }, metrics: [] }, []);
  }

  /**
   * Every execution, or those of a session, deleted or not (those that match the query's
   * filters; a page of them with its `limit`), in creation order.
   */
  async listExecutions(sessionId?: string, query: ExecutionListQuery = {}): Promise<Page<Execution>> {
    return this.reads.get(`executions:${sessionId ?? "*"}:${JSON.stringify(query)}`, async () => {
      if (sessionId && !(await this.store.getSession(sessionId))) throw new BenchwrightError("not_found", `No session ${sessionId}`);
      const where = this.executionWhere(sessionId === undefined ? query : { ...query, session_id: sessionId });
      const page = pageOf(await this.store.executionsWithSteps(where), query.limit, (last) => executionCursor(last.seq));
      return { items: executionViews(page.items), next: page.next };
    });
  }

  /**
   * The metric figures of every successful run attempt of the executions that match the
   * filters, a batch at a time (one query per batch of executions): an export of any size
   * holds a batch in memory, not the whole. A bad filter rejects the first batch.
   */
  async *exportMetrics(query: MetricsExportQuery = {}): AsyncGenerator<MetricRow[], void, undefined> {
    const where = this.executionWhere(query);
    for (let after: string | undefined; ; ) {
      const runs = await this.store.runMetrics({ ...where, afterSeq: after, limit: EXPORT_BATCH });
      yield metricRowsOf(runs);
      // Store.runMetrics gives every execution of the batch at least one row.
      if (new Set(runs.map((r) => r.seq)).size < EXPORT_BATCH) return;
      after = runs[runs.length - 1].seq;
    }
  }

  private executionWhere(query: ExecutionListQuery) {
    return executionWhereOf(query, (name) => this.catalog.tool(name)?.id ?? name);
  }

  async getExecution(id: string): Promise<Execution> {
    return this.reads.get(`execution:${id}`, async () => {
      const [row] = await this.store.executionsWithSteps({ id });
      if (!row) throw new BenchwrightError("not_found", `No execution ${id}`);
      return executionView(row, row.steps);
    });
  }

  /**
   * Compares executions metric by metric with a baseline (the first by default): see
   * results/comparison.ts. Deleted sessions' executions compare too: results outlive sessions.
   */
  async compareExecutions(query: { ids: string[]; baseline?: string; confidence?: number }): Promise<Comparison> {
    const { ids, baseline = query.ids[0], confidence = 0.95 } = query;
    if (!ids.includes(baseline)) {
      const message = "must be one of the executions compared (ids)";
      throw new BenchwrightError("validation_failed", `baseline ${message}`, { errors: [{ path: "/query/baseline", message }] });
    }
    const rows = await this.store.executionsWithSteps({ ids });
    const missing = ids.filter((id) => !rows.some((r) => r.id === id));
    if (missing.length) throw new BenchwrightError("not_found", `No execution ${missing.join(", ")}`);
    const sessions = await this.store.findSessions({ states: ["active", "deleting", "deleted"], ids: [...new Set(rows.map((r) => r.session_id))] });
    const sessionOf = new Map(sessions.map((s) => [s.id, s]));
    const byId = new Map(rows.map((r) => [r.id, r]));
    const compared = ids.map((id) => {
      const row = byId.get(id)!;
      const session = sessionOf.get(row.session_id)!;
      return {
        ...row,
        provider: session.provider_name,
        service_type: session.service_type,
        params: (row as { params?: Record<string, unknown> }).params ?? {},
      };
    });
    return compareExecutions(compared, baseline, confidence);
  }

  /** Runs the prepare step and answers when it ends; see `startStep` for an answer at once. */
  async prepare(execId: string): Promise<StepResult> {
    return this.waitForStep(await this.startStep("prepare", execId));
  }

  async run(execId: string): Promise<StepResult> {
    return this.waitForStep(await this.startStep("run", execId));
  }

  /** Begins a step and hands it to the workers; returns the attempt, which goes on whoever asked. */
  async startStep(kind: StepKind, execId: string): Promise<StepAttempt> {
    return this.steps.start(kind, execId);
  }

  /** One step attempt of an execution. */
  async getStep(execId: string, kind: StepKind, attempt: number): Promise<StepAttempt> {
    return this.steps.get(execId, kind, attempt);
  }

  /** Waits until the attempt has ended (wherever it ran) and answers as the synchronous operation does. */
  async waitForStep(attempt: Pick<StepAttempt, "execution_id" | "step" | "attempt">): Promise<StepResult> {
    return this.steps.wait(attempt);
  }

  /** The log of one step attempt (the last one by default): its size, ranges of it, and a follower. */
  async openLog(execId: string, select: { step?: StepKind; attempt?: number }): Promise<StepLogView> {
    await this.executionRow(execId);
    return openStepLog(this.store, this.logs, execId, select);
  }

  // ---- admin

  async sweep(request: Partial<SweepRequest> = {}): Promise<SweepReport> {
    const dryRun = request.dry_run ?? false;
    const configs = this.providerConfigs().filter((c) => c.providerClass === "cloud" && (!request.provider || c.name === request.provider));
    if (request.provider && configs.length === 0) {
      throw new BenchwrightError("unknown_provider", `No stored cloud configuration '${request.provider}'`, {
        choices: this.providerConfigs().filter((c) => c.providerClass === "cloud").map((c) => c.name),
      });
    }
    const isLive = async (sessionId: string) => {
      const s = await this.store.getSession(sessionId).catch(() => undefined);
      return !!s && s.state !== "deleted";
    };
    const resources: SweepReport["resources"] = [];
    for (const file of configs) {
      const services = request.service ? [request.service] : Object.keys(file.services);
      for (const service of services) {
        const config = parseProviderConfig(resolveStored([file], file.name, service));
        const provider = this.machines.provider(config);
        try {
          resources.push(...((await provider.sweep?.({ isLive, dryRun, log: this.log })) ?? []));
        } catch (e) {
          throw providerFailure(e, `Sweeping ${file.name}/${service} failed`, config);
        }
      }
    }
    return { dry_run: dryRun, resources };
  }

  // ---- internals

  private async liveSession(id: string): Promise<SessionRow> {
    const row = await this.store.getSession(id);
    if (!row || row.state === "deleted") throw new BenchwrightError("not_found", `No session ${id}`);
    return row;
  }

  private async executionRow(id: string): Promise<ExecutionRow> {
    const row = await this.store.getExecution(id);
    if (!row) throw new BenchwrightError("not_found", `No execution ${id}`);
    return row;
  }

  /**
   * Finishes what a stop interrupted, then starts taking steps. A DELETE cut short is finished
   * first, so that its steps are stopped rather than followed again. Steps that were running
   * went on, detached, on their machines: the worker's sweep takes those nobody holds. The
   * embedded database has one process, so every lease in it is this process's, from before.
   */
  private startWorking(): void {
    this.resuming = (async () => {
      if (this.store.db.kind === "pglite") await this.store.releaseLeases();
      for (const session of await this.store.listSessions(["deleting"])) {
        this.log(`finishing the deletion of session ${session.id}, interrupted by a stop`, { session_id: session.id });
        await this.deleteSession(session.id).catch((e: Error) =>
          this.log(`session ${session.id}: deletion failed again: ${e.message}; DELETE it to retry`, { session_id: session.id, level: "error" }),
        );
      }
      await this.steps.startWorking();
    })().catch((e: Error) => this.log(`cannot start taking steps: ${e.message}`, { level: "error" }));
  }
}

/** A name as one token of a JSON Pointer (RFC 6901): a client's unknown name may hold `/` or `~`. */
function jsonPointerToken(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** How many executions' figures the metrics export reads at a time. */
const EXPORT_BATCH = 200;

/** How long a DELETE waits for the owners of the session's steps to record their ends. */
const STEP_END_WAIT_MS = 10_000;

/** pg-boss (and node-postgres under it) is loaded only where it is used: the embedded default starts without it. */
async function openPgBossQueue(databaseUrl: string, queueSchema: string | undefined, log: EngineLog): Promise<StepQueue> {
  const { PgBossQueue, queueSchemaOf } = await import("./queue/pg-boss-queue.js");
  return PgBossQueue.open({ connectionString: databaseUrl, schema: queueSchemaOf(databaseUrl, queueSchema), log });
}

type FormAServices = { service?: string | null; "service-type"?: string | null };

/** Form A's service type, in our spelling or in the Benchmarking Suite REST server's (`service-type`). */
function formAService(body: FormAServices): string | null | undefined {
  const ours = body.service ?? undefined;
  const ancestors = body["service-type"] ?? undefined;
  if (ours !== undefined && ancestors !== undefined && ours !== ancestors) {
    throw new BenchwrightError("validation_failed", `Give service or service-type, not both with different values ('${ours}', '${ancestors}')`, {
      errors: [{ path: "/body/service-type", message: "differs from /body/service" }],
    });
  }
  return ours ?? ancestors;
}
