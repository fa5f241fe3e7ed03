import { EventEmitter } from "node:events";
import type {
  Benchmark, Execution, ExecutionCreate, Provider as ProviderView, Session, SessionCreate, StepAttempt, StepResult, SweepReport, SweepRequest,
} from "@benchwright/contract";
import { Benchmarks } from "./benchmarks/benchmarks.js";
import { storedProviderConfigs } from "./config/stored-provider-configs.js";
import { openEngineResources, type EngineResources } from "./engine-resources.js";
import { stepFields, type EngineLog } from "./engine-log.js";
import { BenchwrightError, isBenchwrightError } from "./errors.js";
import { Executions } from "./executions/executions.js";
import { logStoreFor, openStepLog, type LogStore, type StepLogView } from "./logs/index.js";
import type { MachineAccess } from "./machines/machine-access.js";
import type { OutboundPolicy } from "./net/outbound-guard.js";
import type { ProviderOptions } from "./providers/registry.js";
import { StepRunner } from "./runner/step-runner.js";
import type { SecretBox } from "./secrets/secret-box.js";
import type { StepQueue } from "./queue/step-queue.js";
import type { EventLog } from "./events/event-log.js";
import type { Store } from "./store/store.js";
import type { ExecutionRow } from "./model/executions.js";
import type { LiveResourceCount } from "./model/resources.js";
import type { SessionRow } from "./model/sessions.js";
import type { StepKind, StepRow } from "./model/steps.js";
import { StepExecutor, type StepEnded } from "./step-executor.js";
import { StepWorker, type StepWorkerOptions } from "./steps/step-worker.js";
import { stepAttemptView } from "./views/execution-views.js";
import { SessionMachines } from "./machines/session-machines.js";
import { ReadCache } from "./read-cache.js";
import type { ExecutionListQuery, MetricsExportQuery, Page, SessionListQuery } from "./lists/list-query.js";
import type { MetricRow } from "./lists/metric-rows.js";
import type { Comparison } from "./results/comparison.js";
import { Sessions } from "./sessions/sessions.js";
import type { SessionSteps } from "./sessions/session-steps.js";
import { Sweep } from "./sweep/sweep.js";

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

/**
 * The domain behind the REST interface: one method per operation, no HTTP in it. Each method
 * hands its work to the module that owns it (benchmarks/, sessions/, executions/, sweep/, the steps).
 */
export class Engine {
  readonly store: Store<EventLog>;
  private readonly access: MachineAccess;
  private readonly queue: StepQueue;
  private readonly log: EngineLog;
  private readonly benchmarks: Benchmarks;
  private readonly sessions: Sessions;
  private readonly executions: Executions;
  private readonly sweeps: Sweep;
  private readonly steps: StepExecutor;
  private readonly logs: LogStore;
  private readonly machines: SessionMachines;
  private readonly worker: StepWorker | undefined;
  private resuming: Promise<void> = Promise.resolve();
  private closing = false;
  private readonly stepEnds = new EventEmitter<{ ended: [StepEnded] }>().setMaxListeners(0);
  /** The rows a step was begun with, for this process's worker to drive it with, once (see startStep). */
  private readonly begun = new Map<string, { execution: ExecutionRow; session: SessionRow }>();

  private constructor(
    options: EngineOptions,
    { store, catalogs, secrets, access, queue, log }: EngineResources,
  ) {
    this.store = store;
    this.access = access;
    this.queue = queue;
    this.log = log;
    this.logs = logStoreFor(store.db, options.dataDir);
    this.machines = new SessionMachines({ store, secrets, access, dataDir: options.dataDir, log, providers: options.providers, outbound: options.outbound });
    this.steps = new StepExecutor(
      store,
      () => catalogs.current(),
      new StepRunner(),
      access,
      options.dataDir,
      this.logs,
      log,
      (ended) => this.stepEnds.emit("ended", ended),
      (purpose) => secrets.derive(purpose),
    );
    if (options.work !== false) {
      this.worker = new StepWorker(store, (step, owner, signal) => this.driveStep(step, owner, signal), { log, ...options.worker });
    }
    const providerConfigs = storedProviderConfigs(options.configDir, log);
    // One for sessions and executions: a session's view holds its executions'.
    const reads = new ReadCache(() => store.db.writes ?? store.db.commits, ["sessions", "executions", "steps"]);
    const maxStepTimeoutS = options.maxStepTimeoutS ?? DEFAULT_MAX_STEP_TIMEOUT_S;
    this.benchmarks = new Benchmarks({ catalogs, providerConfigs });
    this.sessions = new Sessions({ store, secrets, machines: this.machines, reads, providerConfigs, steps: this.sessionSteps(), log, maxStepTimeoutS });
    this.executions = new Executions({ store, catalogs, reads });
    this.sweeps = new Sweep({ store, machines: this.machines, providerConfigs, log });
  }

  static async open(options: EngineOptions): Promise<Engine> {
    const engine = new Engine(options, await openEngineResources(options));
    engine.startWorking();
    return engine;
  }

  /**
   * Stops: takes no more steps and hands back those it follows (they go on detached on their
   * hosts, and another worker, or this one restarted, takes them up), within `deadlineMs`.
   */
  async close(deadlineMs = 10_000): Promise<void> {
    this.closing = true;
    await this.resuming;
    await this.worker?.stop(Math.max(0, deadlineMs - 1_000));
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
    this.stepEnds.on("ended", listener);
    return () => this.stepEnds.off("ended", listener);
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

  // ---- benchmarks and providers

  listBenchmarks(): Benchmark[] {
    return this.benchmarks.list();
  }

  getBenchmark(id: string): Benchmark {
    return this.benchmarks.get(id);
  }

  listProviders(): ProviderView[] {
    return this.benchmarks.providers();
  }

  // ---- sessions

  createSession(body: SessionCreate): Promise<Session> {
    return this.sessions.create(body);
  }

  /** The sessions that match the query's filters, the live ones unless its `state` says otherwise (a page of them with its `limit`), oldest first. */
  listSessions(query: SessionListQuery = {}): Promise<Page<Session>> {
    return this.sessions.list(query);
  }

  /** A session in any state: a deleted one's record outlives it, as its executions' results do. */
  getSession(id: string): Promise<Session> {
    return this.sessions.get(id);
  }

  /** Stops its running steps, removes its work dirs, destroys what its provider created. */
  deleteSession(id: string): Promise<void> {
    return this.sessions.delete(id);
  }

  // ---- executions

  createExecution(sessionId: string, body: ExecutionCreate): Promise<Execution> {
    return this.executions.create(sessionId, body);
  }

  /** Every execution, or those of a session, deleted or not (a page of those that match the query), in creation order. */
  listExecutions(sessionId?: string, query: ExecutionListQuery = {}): Promise<Page<Execution>> {
    return this.executions.list(sessionId, query);
  }

  /** The metric figures of the executions that match the filters, a batch at a time (see Executions.exportMetrics). */
  exportMetrics(query: MetricsExportQuery = {}): AsyncGenerator<MetricRow[], void, undefined> {
    return this.executions.exportMetrics(query);
  }

  getExecution(id: string): Promise<Execution> {
    return this.executions.get(id);
  }

  /** Compares executions metric by metric with a baseline (the first by default): see results/comparison.ts. */
  compareExecutions(query: { ids: string[]; baseline?: string; confidence?: number }): Promise<Comparison> {
    return this.executions.compare(query);
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
    if (this.closing) throw new BenchwrightError("unavailable", "The server is stopping; send the request to another server or again shortly", { retry_after: 5 });
    const found = await this.store.getExecutionWithSession(execId);
    if (!found) throw new BenchwrightError("not_found", `No execution ${execId}`);
    const { execution, session } = found;
    if (session.state !== "active") {
      throw new BenchwrightError("session_deleted", `The session of execution ${execId} is ${session.state}`, { state: execution.state });
    }
    // A worker here with room takes it at once: begun leased to it (one write less than a claim
    // after), and driven with the rows just read (what a step uses of them never changes). The
    // queue is for the others (and the sweep finds the step if the send is lost).
    const worker = this.worker?.hasRoom ? this.worker : undefined;
    const step = await this.steps.begin(kind, execution, worker && { owner: worker.owner, leaseMs: worker.leaseMs });
    const key = { execution_id: execId, step: kind, attempt: step.attempt };
    const begunKey = stepId(key);
    this.begun.set(begunKey, { execution, session });
    const taken = worker ? worker.adopt(step) : await this.worker?.take(key).catch(() => false);
    this.begun.delete(begunKey);
    if (!taken) {
      await this.queue.send(key).catch((e: Error) => this.log(`cannot queue ${kind} ${step.attempt} of execution ${execId}: ${e.message}; a worker's sweep will take it`, {
        ...stepFields(key, session.id),
        level: "warn",
      }));
    }
    return stepAttemptView(step);
  }

  /** One step attempt of an execution. */
  async getStep(execId: string, kind: StepKind, attempt: number): Promise<StepAttempt> {
    await this.executionRow(execId);
    const step = await this.store.getStep({ execution_id: execId, step: kind, attempt });
    if (!step) throw new BenchwrightError("not_found", `Execution ${execId} has no ${kind} attempt ${attempt}`);
    return stepAttemptView(step);
  }

  /** Waits until the attempt has ended (wherever it ran) and answers as the synchronous operation does. */
  async waitForStep(attempt: Pick<StepAttempt, "execution_id" | "step" | "attempt">): Promise<StepResult> {
    const key = { execution_id: attempt.execution_id, step: attempt.step, attempt: attempt.attempt };
    // The row this process recorded the end with, when it did: no need to read it back.
    let ended: StepRow | undefined;
    for (let look = 0; ; look++) {
      if (ended) return this.steps.answer(ended);
      // A step this process follows runs until its worker says otherwise: the first look waits for that.
      if (look > 0 || !this.worker?.follows(key)) {
        // The step goes on through a database outage, and so does the wait for it.
        const step = await this.store.getStep(key).catch((e: unknown) => {
          if (isBenchwrightError(e) && e.code === "unavailable" && !this.closing) return "unreachable" as const;
          throw e;
        });
        if (!step) throw new BenchwrightError("not_found", `No ${key.step} attempt ${key.attempt} of execution ${key.execution_id}`);
        if (step !== "unreachable" && step.state !== "running") return this.steps.answer(step);
        if (this.closing) {
          throw new BenchwrightError("unavailable", `The server is stopping; ${key.step} ${key.attempt} goes on, and its state is at its step resource`, { retry_after: 5 });
        }
      }
      // Ended here: known at once. Ended elsewhere: seen at the next look.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, STEP_POLL_MS);
        const off = this.worker?.onEnded(key, (row) => {
          ended = row;
          done();
        });
        function done() {
          clearTimeout(timer);
          off?.();
          resolve();
        }
      });
    }
  }

  /** The log of one step attempt (the last one by default): its size, ranges of it, and a follower. */
  async openLog(execId: string, select: { step?: StepKind; attempt?: number }): Promise<StepLogView> {
    await this.executionRow(execId);
    return openStepLog(this.store, this.logs, execId, select);
  }

  // ---- admin

  sweep(request: Partial<SweepRequest> = {}): Promise<SweepReport> {
    return this.sweeps.run(request);
  }

  // ---- internals

  /** Follows a step this process's worker claimed, with its session's machines, to its end. */
  private async driveStep(step: StepRow, owner: string, signal: AbortSignal): Promise<StepRow | null> {
    const begun = this.begun.get(stepId(step));
    this.begun.delete(stepId(step));
    const execution = begun?.execution ?? (await this.executionRow(step.execution_id));
    const session = begun?.session ?? (await this.store.getSession(execution.session_id))!;
    const { config, scrubber } = this.machines.settingsOf(session);
    return this.steps.drive(step, {
      execution,
      machines: (count) => this.machines.ensure(session, config, signal, stepFields(step, session.id), count),
      timeoutOverride: config.stepTimeoutS,
      signal,
      owner,
      scrubber,
    });
  }

  /** What deleting a session asks of the steps, from the executor and this process's worker. */
  private sessionSteps(): SessionSteps {
    return {
      stopExecutions: async (ids) => {
        await this.worker?.stopExecutions(ids);
      },
      removeWorkDirs: (sessionId, machines, ids, failed) => this.steps.removeWorkDirs(sessionId, machines, ids, failed),
      abandon: (ids, reason) => this.steps.abandon(ids, reason),
      waitEnded: async (ids, maxMs) => {
        const until = Date.now() + maxMs;
        while (Date.now() < until && (await this.store.heldSteps(ids)).length > 0) {
          await new Promise((r) => setTimeout(r, STEP_POLL_MS));
        }
      },
    };
  }

  private executionRow(id: string): Promise<ExecutionRow> {
    return this.executions.row(id);
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
      await this.sessions.resumeDeletions();
      if (this.worker) {
        this.worker.start();
        await this.queue.work((key) => this.worker!.take(key).then(() => {}));
      }
    })().catch((e: Error) => this.log(`cannot start taking steps: ${e.message}`, { level: "error" }));
  }
}

function stepId(key: { execution_id: string; step: StepKind; attempt: number }): string {
  return `${key.execution_id}/${key.step}/${key.attempt}`;
}

/** How often a waiter looks at a step that runs elsewhere; a step that ends here is known at once. */
const STEP_POLL_MS = 200;
