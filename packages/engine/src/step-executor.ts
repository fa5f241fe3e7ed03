import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
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
  ) {}

  logFile(executionId: string, step: StepKind, attempt: number): string {
    return join(this.dataDir, "logs", executionId, `${step}-${attempt}.log`);
  }

  async execute(kind: StepKind, ctx: StepContext): Promise<StepResult> {
    const { execution } = ctx;
    const t = TRANSITIONS[kind];
    const moved = await this.store.transitionExecution(execution.id, t.from, t.during);
    if (!moved) {
      const now = await this.store.getExecution(execution.id);
      throw new BenchwrightError(
        "wrong_state",
        `Execution ${execution.id} is ${now?.state}; ${kind} needs ${t.from.join(" or ")}`,
        { state: now?.state },
      );
    }
    const step = await this.store.startStep(execution.id, kind, new Date(), (a) => this.logFile(execution.id, kind, a));
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
        return this.judge(step.step, execution, machine, outcome, timeoutS, fd, 0);
      } finally {
        transport.release();
      }
    });
  }

  /** Records how the step ended, whichever way it was run, and moves the execution on. */
  private async complete(
    kind: StepKind,
    ctx: StepContext,
    step: StepRow,
    body: (fd: number) => Promise<StoredMetric[] | null>,
  ): Promise<StepResult> {
    const { execution } = ctx;
    const t = TRANSITIONS[kind];
    const started = new Date(step.started);
    mkdirSync(dirname(step.log_file), { recursive: true });
    const fd = openSync(step.log_file, "a+");
    const elapsed = () => (Date.now() - started.getTime()) / 1000;
    try {
      const metrics = await body(fd);
      const duration = elapsed();
      await this.store.finishStep(execution.id, kind, step.attempt, { state: "succeeded", duration, exit_code: 0, error: null, metrics });
      if (kind === "run") await this.store.setMetrics(execution.id, metrics ?? []);
      await this.store.transitionExecution(execution.id, [t.during], t.ok);
      return { started: formatTimestamp(started), duration: formatDuration(duration) };
    } catch (e) {
      if (e instanceof EngineShutdown) {
        // The detached step goes on; the next start of the server follows it again.
        throw new BenchwrightError("internal", "The server is stopping; the step goes on and is followed again when it restarts");
      }
      const error = asStepError(e, kind, execution, step.attempt, step.log_file);
      await this.store.finishStep(execution.id, kind, step.attempt, {
        state: "failed",
        duration: elapsed(),
        exit_code: error.extras.exit_code ?? null,
        error: error.detail,
        metrics: null,
      });
      await this.store.transitionExecution(execution.id, [t.during], t.failed);
      error.extras.state = t.failed;
      throw error;
    } finally {
      closeSync(fd);
    }
  }

  private async onMachines(kind: StepKind, ctx: StepContext, attempt: number, fd: number): Promise<StoredMetric[] | null> {
    const { execution } = ctx;
    const machines = await ctx.machines();
    const timeoutS = this.timeoutOf(kind, ctx);
    if (kind === "prepare") await this.recordFacts(execution, machines);
    const vms = (await this.store.getExecution(execution.id))!.exec_env.vms;
    const metrics: StoredMetric[] = [];
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
    }
    return kind === "run" ? metrics : null;
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
