import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Catalog } from "@benchwright/catalog";
import { CatalogSource } from "./catalog-source.js";
import type {
  Benchmark, Execution, ExecutionCreate, Provider as ProviderView, Session, SessionCreate, StepResult, SweepReport, SweepRequest,
} from "@benchwright/contract";
import { loadProviderConfigs, resolveInline, resolveStored, type ProviderConfigFile } from "./config/provider-config.js";
import { BenchwrightError } from "./errors.js";
import { openLogStream } from "./logs.js";
import { MachineAccess } from "./machines/machine-access.js";
import { assertValidConfig, createProvider, type ProviderOptions } from "./providers/registry.js";
import type { Machine, ProviderContext, ResolvedConfig } from "./providers/provider.js";
import { StepRunner } from "./runner/step-runner.js";
import { SecretBox } from "./secrets.js";
import { openDb, type Db } from "./store/db.js";
import { migrate } from "./store/migrations.js";
import { Store, type ExecutionRow, type SessionRow, type StepKind } from "./store/store.js";
import { EngineShutdown, StepExecutor } from "./step-executor.js";
import { executionView, sessionView } from "./views.js";

export interface EngineOptions {
  /** Embedded database, logs, local work dirs and the generated secret key live here. */
  dataDir: string;
  /** `providers/` (Form A configurations) and `benchmarks/` (extra definitions) live here. */
  configDir: string;
  /** PostgreSQL instead of the embedded PGlite. */
  databaseUrl?: string;
  /** Keep the embedded database in memory (tests). */
  inMemory?: boolean;
  /** Lines for the operator; never given a credential. */
  log?: (line: string) => void;
  providers?: ProviderOptions;
  secrets?: SecretBox;
}

/** The domain behind the REST interface: one method per operation, no HTTP in it. */
export class Engine {
  private readonly inflight = new Map<string, { abort: AbortController; done: Promise<unknown> }>();
  private readonly machineLocks = new Map<string, Promise<Machine[]>>();
  private readonly steps: StepExecutor;
  private resuming: Promise<void> = Promise.resolve();

  private constructor(
    private readonly options: EngineOptions,
    readonly store: Store,
    private readonly catalogs: CatalogSource,
    private readonly secrets: SecretBox,
    private readonly access: MachineAccess,
    private readonly log: (line: string) => void,
  ) {
    this.steps = new StepExecutor(store, () => catalogs.current(), new StepRunner(), access, options.dataDir, log);
  }

  static async open(options: EngineOptions): Promise<Engine> {
    const log = options.log ?? (() => {});
    const db: Db = await openDb({
      databaseUrl: options.databaseUrl,
      pgliteDir: options.inMemory ? "memory://" : join(options.dataDir, "db"),
    });
    await migrate(db);
    const store = new Store(db);
    const catalogs = new CatalogSource(join(options.configDir, "benchmarks"), log);
    const secrets = options.secrets ?? SecretBox.fromEnvironment(options.dataDir);
    const access = new MachineAccess(store);
    const engine = new Engine(options, store, catalogs, secrets, access, log);
    engine.resumeInterruptedSteps();
    return engine;
  }

  async close(): Promise<void> {
    await this.resuming;
    for (const { abort } of this.inflight.values()) abort.abort(new EngineShutdown());
    await Promise.allSettled([...this.inflight.values()].map((s) => s.done));
    await this.access.close();
    await this.store.db.close();
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
    return loadProviderConfigs(this.options.configDir, (file, e) => this.log(`skipping provider configuration ${file}: ${e.message}`));
  }

  // ---- sessions

  async createSession(body: SessionCreate): Promise<Session> {
    const config =
      "config" in body && body.config
        ? resolveInline(body.config as Record<string, unknown>)
        : resolveStored(this.providerConfigs(), (body as { provider: string }).provider, (body as { service: string }).service);
    assertValidConfig(config);
    const row: Omit<SessionRow, "deleted_at"> = {
      id: randomUUID(),
      provider_name: config.name,
      service_type: config.serviceType,
      provider_class: config.providerClass,
      driver: typeof config.provider.driver === "string" ? config.provider.driver : null,
      region: typeof config.provider.region === "string" ? config.provider.region : null,
      config_sealed: this.secrets.seal(config),
      state: "active",
      created: new Date(),
    };
    await this.store.insertSession(row);
    this.log(`session ${row.id} created on ${config.providerClass} configuration ${config.name}/${config.serviceType}`);
    return sessionView({ ...row, deleted_at: null }, []);
  }

  async listSessions(): Promise<Session[]> {
    const rows = await this.store.listSessions(["active", "deleting"]);
    const executions = await this.executionViews(await this.store.listExecutions(rows.map((r) => r.id)));
    return rows.map((r) => sessionView(r, executions.filter((e) => e.session_id === r.id)));
  }

  async getSession(id: string): Promise<Session> {
    const row = await this.liveSession(id);
    return sessionView(row, await this.executionViews(await this.store.listExecutions([id])));
  }

  /** Stops its running steps, removes its work dirs, destroys what its provider created. */
  async deleteSession(id: string): Promise<void> {
    const row = await this.liveSession(id);
    if (!(await this.store.setSessionState(id, ["active", "deleting"], "deleting"))) {
      throw new BenchwrightError("wrong_state", `Session ${id} is ${row.state}`, { state: row.state });
    }
    const executions = await this.store.listExecutions([id]);
    for (const e of executions) this.inflight.get(e.id)?.abort.abort(new Error("the session was deleted"));
    await Promise.allSettled(executions.map((e) => this.inflight.get(e.id)?.done));
    // Steps nobody here follows (their server stopped mid-step): their processes are killed
    // with the work dirs below; their records end now.
    await this.steps.abandon(executions.map((e) => e.id), "the session was deleted while the step ran");
    const config = this.configOf(row);
    const ctx = this.providerContext(row, config);
    try {
      const machines = await this.knownMachines(config, ctx);
      for (const machine of machines) {
        const transport = this.access.transport(id, machine);
        try {
          for (const e of executions) await this.steps.removeWorkDir(transport, machine, e.id);
        } catch (e) {
          this.log(`session ${id}: could not remove work dirs on ${machine.id}: ${(e as Error).message}`);
        } finally {
          transport.release();
        }
      }
      await createProvider(config, this.options.providers).destroy(ctx);
    } catch (e) {
      throw providerFailure(e, `Deleting session ${id} failed; DELETE it again to retry`);
    }
    await this.store.setSessionState(id, ["deleting"], "deleted");
    this.machineLocks.delete(id);
    this.log(`session ${id} deleted`);
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
    const row = {
      id: randomUUID(),
      session_id: sessionId,
      tool_id: tool.id,
      workload_id: workload.id,
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

  async listExecutions(sessionId?: string): Promise<Execution[]> {
    if (sessionId) await this.liveSession(sessionId);
    return this.executionViews(await this.store.listExecutions(sessionId ? [sessionId] : undefined));
  }

  async getExecution(id: string): Promise<Execution> {
    return (await this.executionViews([await this.executionRow(id)]))[0];
  }

  prepare(execId: string): Promise<StepResult> {
    return this.step("prepare", execId);
  }

  run(execId: string): Promise<StepResult> {
    return this.step("run", execId);
  }

  /** The log of one step attempt (the last one by default), as a stream. */
  async openLog(execId: string, select: { step?: StepKind; attempt?: number }) {
    await this.executionRow(execId);
    const steps = (await this.store.listSteps([execId])).filter((s) => !select.step || s.step === select.step);
    const chosen = select.attempt ? steps.find((s) => s.attempt === select.attempt) : steps.at(-1);
    if (!chosen || !existsSync(chosen.log_file)) {
      throw new BenchwrightError("not_found", `Execution ${execId} has no log for ${select.step ?? "any step"}${select.attempt ? ` attempt ${select.attempt}` : ""}`);
    }
    return openLogStream(chosen.log_file);
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
        const config = resolveStored([file], file.name, service);
        const provider = createProvider(config, this.options.providers);
        try {
          resources.push(...((await provider.sweep?.(config, { isLive, dryRun, log: this.log })) ?? []));
        } catch (e) {
          throw providerFailure(e, `Sweeping ${file.name}/${service} failed`);
        }
      }
    }
    return { dry_run: dryRun, resources };
  }

  // ---- internals

  private async step(kind: StepKind, execId: string): Promise<StepResult> {
    const execution = await this.executionRow(execId);
    const session = (await this.store.getSession(execution.session_id))!;
    if (session.state !== "active") {
      throw new BenchwrightError("session_deleted", `The session of execution ${execId} is ${session.state}`, { state: execution.state });
    }
    const config = this.configOf(session);
    // The step goes on when the HTTP client goes away; only deleting the session stops it.
    return this.track(execId, (signal) =>
      this.steps.execute(kind, {
        execution,
        machines: () => this.sessionMachines(session, config),
        timeoutOverride: stepTimeoutOf(config),
        signal,
      }),
    );
  }

  /** Runs a step of an execution where deleting its session, or stopping the server, can stop it. */
  private async track<T>(execId: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const abort = new AbortController();
    const done = work(abort.signal);
    this.inflight.set(execId, { abort, done: done.catch(() => {}) });
    try {
      return await done;
    } finally {
      this.inflight.delete(execId);
    }
  }

  /** One ensureMachines at a time per session, so that two prepares never create twice. */
  private sessionMachines(session: SessionRow, config: ResolvedConfig): Promise<Machine[]> {
    const previous = this.machineLocks.get(session.id) ?? Promise.resolve([]);
    const next = previous.catch(() => []).then(async () => {
      try {
        return await createProvider(config, this.options.providers).ensureMachines(this.providerContext(session, config));
      } catch (e) {
        throw providerFailure(e, `The ${config.providerClass} provider could not make the machines ready`);
      }
    });
    this.machineLocks.set(session.id, next);
    return next;
  }

  /** Machines to clean on deletion: the provider's view, without creating any that do not exist. */
  private async knownMachines(config: ResolvedConfig, ctx: ProviderContext): Promise<Machine[]> {
    if (config.providerClass === "cloud") {
      // Destroying the instances removes their work dirs with them.
      return [];
    }
    return createProvider(config, this.options.providers).ensureMachines(ctx);
  }

  private providerContext(session: SessionRow, config: ResolvedConfig): ProviderContext {
    const store = this.store;
    const secrets = this.secrets;
    return {
      sessionId: session.id,
      config,
      dataDir: this.options.dataDir,
      log: (line) => this.log(`session ${session.id}: ${line}`),
      resources: {
        record: (kind, id, meta = {}) =>
          store.recordResource({ session_id: session.id, provider_name: config.name, kind, resource_id: id, meta_sealed: secrets.seal(meta) }),
        markDestroyed: (kind, id) => store.markResourceDestroyed(session.id, kind, id),
        live: async () =>
          (await store.liveResources(session.id)).map((r) => ({ kind: r.kind, id: r.resource_id, meta: secrets.open<Record<string, unknown>>(r.meta_sealed) })),
      },
    };
  }

  private configOf(session: SessionRow): ResolvedConfig {
    return this.secrets.open<ResolvedConfig>(session.config_sealed);
  }

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

  private async executionViews(rows: ExecutionRow[]): Promise<Execution[]> {
    const steps = rows.length ? await this.store.listSteps(rows.map((r) => r.id)) : [];
    return rows.map((r) => executionView(r, steps.filter((s) => s.execution_id === r.id)));
  }

  /**
   * Steps that were running when the server stopped went on, detached, on their machines:
   * follow each again in the background, from the bytes of log already stored.
   */
  private resumeInterruptedSteps(): void {
    this.resuming = this.store.runningSteps().then(async (steps) => {
      // A DELETE cut short by a crash is finished first: its steps are stopped, not resumed.
      const deleting = await this.store.listSessions(["deleting"]);
      await Promise.all(
        deleting.map((session) => {
          this.log(`finishing the deletion of session ${session.id}, interrupted by a stop`);
          return this.deleteSession(session.id).catch((e: Error) => this.log(`session ${session.id}: deletion failed again: ${e.message}; DELETE it to retry`));
        }),
      );
      for (const step of steps) {
        const execution = await this.executionRow(step.execution_id);
        const session = (await this.store.getSession(execution.session_id))!;
        if (session.state !== "active") continue;
        void this.track(step.execution_id, async (signal) => {
          const config = this.configOf(session);
          this.log(`resuming ${step.step} ${step.attempt} of execution ${execution.id}`);
          return this.steps.resume(step, {
            execution,
            machines: () => this.sessionMachines(session, config),
            timeoutOverride: stepTimeoutOf(config),
            signal,
          });
        }).catch((e: Error) => this.log(`resumed ${step.step} of execution ${step.execution_id} ended in error: ${e.message}`));
      }
    }, (e: Error) => this.log(`cannot look for interrupted steps: ${e.message}`));
  }
}

function benchmarkView(tool: ReturnType<Catalog["tools"]>[number]): Benchmark {
  return {
    id: tool.id,
    tool_name: tool.tool_name,
    description: tool.description,
    workloads: tool.workloads.map((w) => ({
      id: w.id,
      workload_name: w.workload_name,
      workload_description: w.workload_description,
      categories: w.categories,
    })),
  };
}

function stepTimeoutOf(config: ResolvedConfig): number | undefined {
  return typeof config.service.step_timeout === "number" ? config.service.step_timeout : undefined;
}

/** Provider failures become a 502 problem whose text carries no credential. */
function providerFailure(e: unknown, context: string): BenchwrightError {
  if (e instanceof BenchwrightError) return e;
  return new BenchwrightError("provider_failed", `${context}: ${(e as Error).message ?? String(e)}`, {}, { cause: e });
}
