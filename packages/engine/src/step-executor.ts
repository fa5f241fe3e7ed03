import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";
import { dirname, join } from "node:path";
import type { Catalog } from "@benchwright/catalog";
import type { StepResult } from "@benchwright/contract";
import { BenchwrightError, isBenchwrightError } from "./errors.js";
import { logSize, readFileTail, readLogTail } from "./logs.js";
import { readMachineFacts } from "./machines/facts.js";
import type { MachineAccess } from "./machines/machine-access.js";
import type { Machine } from "./providers/provider.js";
import { shellPath } from "./runner/shell-quote.js";
import type { StepOutcome } from "./runner/step.js";
import type { StepRunner } from "./runner/step-runner.js";
import type { Transport } from "./transport/transport.js";
import type { ExecutionRow, ExecutionState, StepKind, StepRow, StoredMetric, Store, VmRecord } from "./store/store.js";
import { formatDuration, formatTimestamp } from "./time.js";

/** Where each step may start from, and where it ends. */
const TRANSITIONS: Record<StepKind, { from: ExecutionState[]; during: ExecutionState; ok: ExecutionState; failed: ExecutionState }> = {
  prepare: { from: ["created", "prepare_failed"], during: "preparing", ok: "prepared", failed: "prepare_failed" },
  run: { from: ["prepared", "completed", "run_failed"], during: "running", ok: "completed", failed: "run_failed" },
};

export interface StepContext {
  execution: ExecutionRow;
  /** Resolves the session's machines (creating them at the provider when needed). */
  machines: () => Promise<Machine[]>;
  /** Seconds; the service type's `step_timeout`, when it sets one. */
  timeoutOverride?: number;
  signal: AbortSignal;
}

/** Runs prepare and run: the state machine around the runner, logs to disk, metrics to the store. */
export class StepExecutor {
  constructor(
    private readonly store: Store,
    /** The catalog as it is now: dropped-in definitions may change while the server runs. */
    private readonly catalog: () => Catalog,
    private readonly runner: StepRunner,
    private readonly access: MachineAccess,
    private readonly dataDir: string,
    private readonly log: (line: string) => void = () => {},
  ) {}

  logFile(executionId: string, step: StepKind, attempt: number): string {
    return join(this.dataDir, "logs", executionId, `${step}-${attempt}.log`);
  }

  async execute(kind: StepKind, ctx: StepContext): Promise<StepResult> {
    const { execution } = ctx;
    const t = TRANSITIONS[kind];
    const step = await this.store.beginStep(execution.id, kind, { from: t.from, to: t.during }, new Date(), (a) => this.logFile(execution.id, kind, a));
    if (!step) {
      const now = await this.store.getExecution(execution.id);
      throw new BenchwrightError(
        "wrong_state",
        `Execution ${execution.id} is ${now?.state}; ${kind} needs ${t.from.join(" or ")}`,
        { state: now?.state },
      );
    }
    return this.complete(kind, ctx, step, (fd) => this.onMachines(kind, ctx, step.attempt, fd));
  }

  /**
   * Follows again a step that was running when the server stopped: its detached process went
   * on, and its log is read on from the bytes already stored. Sessions of one machine only:
   * for several, which machine was under way is not recorded, so the step is failed instead.
   */
  async resume(step: StepRow, ctx: StepContext): Promise<StepResult> {
    const { execution } = ctx;
    return this.complete(step.step, ctx, step, async (fd) => {
      const machines = await ctx.machines();
      if (machines.length !== 1) {
        throw new BenchwrightError("step_failed", `${step.step} was interrupted by a server restart and cannot be resumed on a session of ${machines.length} machines`);
      }
      const [machine] = machines;
      const timeoutS = this.timeoutOf(step.step, ctx);
      const transport = this.access.transport(execution.session_id, machine);
      try {
        const dir = this.stepDir(machine, execution.id, step.step, step.attempt);
        const pid = await transport.exec(`cat ${shellPath(dir)}/step.pid`);
        const pgid = Number(pid.stdout.trim());
        if (pid.code !== 0 || !Number.isInteger(pgid) || pgid <= 1) {
          throw new BenchwrightError("step_failed", `${step.step} was interrupted before it started on ${machine.id}`);
        }
        const outcome = await this.runner.follow(transport, { dir, pgid }, {
          fromOffset: logSize(fd),
          onData: (chunk) => writeSync(fd, chunk),
          signal: ctx.signal,
          deadline: new Date(step.started).getTime() + timeoutS * 1000,
        });
        const metrics = this.judge(step.step, execution, machine, outcome, timeoutS, fd, 0);
        return { metrics: step.step === "run" ? metrics : null, endedAt: outcome.endedAt };
      } finally {
        transport.release();
      }
    });
  }

  /**
   * Records how the step ended, whichever way it was run, and moves the execution on. Every
   * way out of a step that was begun records an outcome, except a server that stops: then the
   * step stays `running`, goes on detached, and the next start follows it again.
   */
  private async complete(kind: StepKind, ctx: StepContext, step: StepRow, body: (fd: number) => Promise<StepWork>): Promise<StepResult> {
    const { execution } = ctx;
    const t = TRANSITIONS[kind];
    const started = new Date(step.started);
    let fd: number | undefined;
    let work: StepWork | undefined;
    let failure: BenchwrightError | undefined;
    try {
      fd = openStepLog(step.log_file);
      work = await body(fd);
    } catch (e) {
      if (stopping(e, ctx.signal)) {
        throw new BenchwrightError("internal", "The server is stopping; the step goes on and is followed again when it restarts");
      }
      failure = asStepError(e, kind, execution, step.attempt, step.log_file);
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    // The host's own record of when the work ended: time spent reconnecting is not the step's.
    const duration = Math.max(0, (Math.min(work?.endedAt ?? Date.now(), Date.now()) - started.getTime()) / 1000);
    const result = failure
      ? { state: "failed" as const, duration, exit_code: failure.extras.exit_code ?? null, error: failure.detail, metrics: null }
      : { state: "succeeded" as const, duration, exit_code: 0, error: null, metrics: work!.metrics };
    await this.record(ctx, `${kind} ${step.attempt} of execution ${execution.id}`, () =>
      this.store.endStep(execution.id, kind, step.attempt, result, { from: t.during, to: failure ? t.failed : t.ok }),
    );
    if (failure) {
      failure.extras.state = t.failed;
      throw failure;
    }
    return { started: formatTimestamp(started), duration: formatDuration(duration) };
  }

  /**
   * Writes a step's outcome, trying again until the database takes it: the outcome is known
   * and must not be lost to an outage. Only a server that stops gives up, leaving the step
   * `running` for the next start to follow again.
   */
  private async record(ctx: StepContext, what: string, write: () => Promise<unknown>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await write();
        return;
      } catch (e) {
        if (stopping(e, ctx.signal)) throw new BenchwrightError("internal", "The server is stopping; the step's outcome is recorded when it restarts");
        this.log(`cannot record the outcome of ${what} yet (try ${attempt}): ${(e as Error).message}`);
        await delay(Math.min(250 * 2 ** (attempt - 1), 10_000), undefined, { signal: this.shutdownSignal(ctx.signal) }).catch(() => {});
      }
    }
  }

  /** Aborts only when the server stops, not when the session is deleted: a deleted session's steps still record how they ended. */
  private shutdownSignal(signal: AbortSignal): AbortSignal | undefined {
    return signal.aborted && !(signal.reason instanceof EngineShutdown) ? undefined : signal;
  }

  private async onMachines(kind: StepKind, ctx: StepContext, attempt: number, fd: number): Promise<StepWork> {
    const { execution } = ctx;
    const machines = await ctx.machines();
    const timeoutS = this.timeoutOf(kind, ctx);
    if (kind === "prepare") await this.recordFacts(execution, machines);
    const vms = (await this.store.getExecution(execution.id))!.exec_env.vms;
    const metrics: StoredMetric[] = [];
    let endedAt: number | undefined;
    for (const machine of machines) {
      const platform = vms.find((v) => v.id === machine.id)?.platform || machine.platform;
      const opts = { platform, allowInstall: machine.allowInstall };
      const script =
        kind === "prepare"
          ? this.catalog().prepareScript(execution.tool_id, execution.workload_id, opts)
          : this.catalog().runScript(execution.tool_id, execution.workload_id, opts);
      if (machines.length > 1) writeSync(fd, `=== ${kind} on ${machine.id} ===\n`);
      const logStart = logSize(fd);
      const outcome = await this.runner.run(
        () => this.access.transport(execution.session_id, machine),
        {
          dir: this.stepDir(machine, execution.id, kind, attempt),
          script,
          env: { BW_EXECUTION_ID: execution.id, BW_STEP: kind, BW_ATTEMPT: String(attempt), BW_MACHINE: machine.id },
          timeoutMs: timeoutS * 1000,
        },
        (chunk: Buffer) => writeSync(fd, chunk),
        ctx.signal,
      );
      metrics.push(...this.judge(kind, execution, machine, outcome, timeoutS, fd, logStart));
      endedAt = outcome.endedAt;
    }
    return { metrics: kind === "run" ? metrics : null, endedAt };
  }

  /** The metrics of a machine's part of a step, or the error that says why it failed. */
  private judge(kind: StepKind, execution: ExecutionRow, machine: Machine, outcome: StepOutcome, timeoutS: number, fd: number, logStart: number): StoredMetric[] {
    if (outcome.timedOut) {
      throw new BenchwrightError("step_timeout", `${kind} of ${execution.tool_id}/${execution.workload_id} on ${machine.id} passed its time limit of ${timeoutS} s and was killed`, {
        exit_code: null,
      });
    }
    if (outcome.exitCode !== 0) {
      throw new BenchwrightError("step_failed", `${kind} of ${execution.tool_id}/${execution.workload_id} on ${machine.id} exited with code ${outcome.exitCode ?? "none (killed)"}`, {
        exit_code: outcome.exitCode,
      });
    }
    if (kind === "run") {
      // The parser reads the tail of this machine's part of the log: enough for any tool's summary,
      // bounded so that a chatty workload cannot fill the server's memory.
      const output = readLogTail(fd, logStart, PARSE_WINDOW_BYTES);
      const found = this.catalog().parse(execution.tool_id, execution.workload_id, output);
      if (found.length === 0) {
        throw new BenchwrightError("step_failed", `run of ${execution.tool_id}/${execution.workload_id} on ${machine.id} exited 0, but its output holds no metrics`, {
          exit_code: 0,
        });
      }
      return found.map((m) => ({ ...m, vm: machine.id }));
    }
    return [];
  }

  private timeoutOf(kind: StepKind, ctx: StepContext): number {
    return ctx.timeoutOverride ?? this.catalog().timeouts(ctx.execution.tool_id, ctx.execution.workload_id)[kind];
  }

  private stepDir(machine: Machine, executionId: string, kind: StepKind, attempt: number): string {
    return `${machine.workRoot}/${executionId}/${kind}-${attempt}`;
  }

  /** Ends, as failed, the steps of these executions still recorded as running (nobody follows them any more). */
  async abandon(executionIds: string[], reason: string): Promise<void> {
    if (executionIds.length === 0) return;
    for (const step of await this.store.runningSteps(executionIds)) {
      const t = TRANSITIONS[step.step];
      const duration = Math.max(0, (Date.now() - new Date(step.started).getTime()) / 1000);
      await this.store.endStep(step.execution_id, step.step, step.attempt, { state: "failed", duration, exit_code: null, error: reason, metrics: null }, { from: t.during, to: t.failed });
    }
  }

  /**
   * Removes an execution's work dir on a machine, first killing any step still running in it
   * (a step outlives its follower by design, so deleting a session must stop it explicitly).
   */
  async removeWorkDir(transport: Transport, machine: Machine, executionId: string): Promise<void> {
    const dir = `${machine.workRoot}/${executionId}`;
    await transport.exec(
      `for f in ${shellPath(dir)}/*/step.pid; do [ -f "$f" ] && [ ! -f "$(dirname "$f")/step.rc" ] && kill -KILL -- "-$(cat "$f")" 2>/dev/null; done; true`,
    );
    await this.runner.remove(transport, dir, machine.ssh ? undefined : dirname(machine.workRoot));
  }

  /** Prepare reads what each machine is, so that results stay comparable. */
  private async recordFacts(execution: ExecutionRow, machines: Machine[]): Promise<void> {
    const vms: VmRecord[] = [];
    for (const machine of machines) {
      const transport = this.access.transport(execution.session_id, machine);
      try {
        const { platform, ...facts } = await readMachineFacts(transport);
        const vm = { id: machine.id, ip: machine.ip, platform: machine.platform || platform || "unknown", facts };
        vms.push(vm);
        await this.store.upsertMachine({ session_id: execution.session_id, id: vm.id, ip: vm.ip, platform: vm.platform, facts });
      } finally {
        transport.release();
      }
    }
    await this.store.setExecEnv(execution.id, { vms });
  }
}

/** The abort reason of a server that stops: steps are left running, to be followed again. */
export class EngineShutdown extends Error {
  constructor() {
    super("the server is stopping");
  }
}

/** What a step's work gives back: its metrics (run only) and when, by the host's clock, it ended. */
interface StepWork {
  metrics: StoredMetric[] | null;
  /** Epoch ms; unset when no host reported it (the step then ends when it is recorded). */
  endedAt?: number;
}

/** True when the server is stopping: the step is left to the next start, not failed. */
function stopping(e: unknown, signal: AbortSignal): boolean {
  return e instanceof EngineShutdown || (signal.aborted && signal.reason instanceof EngineShutdown);
}

/** Opens (creating its folder) the step's log for appending; a failure here fails the step like any other. */
function openStepLog(path: string): number {
  mkdirSync(dirname(path), { recursive: true });
  return openSync(path, "a+");
}

const PARSE_WINDOW_BYTES = 8 * 1024 * 1024;
const TAIL_BYTES = 2048;

/** Any failure of a step becomes a problem that names the step and carries the output's tail. */
function asStepError(e: unknown, kind: StepKind, execution: ExecutionRow, attempt: number, logFile: string): BenchwrightError {
  const tail = readFileTail(logFile, TAIL_BYTES);
  const base = isBenchwrightError(e)
    ? e
    : new BenchwrightError("step_failed", `${kind} of ${execution.tool_id}/${execution.workload_id} failed: ${(e as Error).message}`, {}, { cause: e });
  return new BenchwrightError(base.code, base.detail, {
    ...base.extras,
    exit_code: base.extras.exit_code ?? null,
    output_tail: tail,
    execution_id: execution.id,
    step: kind,
    attempt,
  });
}
