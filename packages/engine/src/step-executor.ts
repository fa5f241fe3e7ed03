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
import type { StepRunner } from "./runner/step-runner.js";
import type { Transport } from "./transport/transport.js";
import type { ExecutionRow, ExecutionState, StepKind, StoredMetric, Store, VmRecord } from "./store/store.js";
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
    private readonly catalog: Catalog,
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
    const started = new Date();
    const step = await this.store.startStep(execution.id, kind, started, (a) => this.logFile(execution.id, kind, a));
    mkdirSync(dirname(step.log_file), { recursive: true });
    const fd = openSync(step.log_file, "a+");
    const elapsed = () => (Date.now() - started.getTime()) / 1000;
    try {
      const metrics = await this.onMachines(kind, ctx, step.attempt, fd);
      const duration = elapsed();
      await this.store.finishStep(execution.id, kind, step.attempt, { state: "succeeded", duration, exit_code: 0, error: null, metrics });
      if (kind === "run") await this.store.setMetrics(execution.id, metrics ?? []);
      await this.store.transitionExecution(execution.id, [t.during], t.ok);
      return { started: formatTimestamp(started), duration: formatDuration(duration) };
    } catch (e) {
      const error = asStepError(e, kind, execution, step.attempt, step.log_file);
      closeSync(fd);
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
      try {
        closeSync(fd);
      } catch {
        // closed above on failure
      }
    }
  }

  private async onMachines(kind: StepKind, ctx: StepContext, attempt: number, fd: number): Promise<StoredMetric[] | null> {
    const { execution } = ctx;
    const machines = await ctx.machines();
    const timeouts = this.catalog.timeouts(execution.tool_id, execution.workload_id);
    const timeoutS = ctx.timeoutOverride ?? timeouts[kind];
    if (kind === "prepare") await this.recordFacts(execution, machines);
    const vms = (await this.store.getExecution(execution.id))!.exec_env.vms;
    const metrics: StoredMetric[] = [];
    for (const machine of machines) {
      const platform = vms.find((v) => v.id === machine.id)?.platform || machine.platform;
      const opts = { platform, allowInstall: machine.allowInstall };
      const script =
        kind === "prepare"
          ? this.catalog.prepareScript(execution.tool_id, execution.workload_id, opts)
          : this.catalog.runScript(execution.tool_id, execution.workload_id, opts);
      if (machines.length > 1) writeSync(fd, `=== ${kind} on ${machine.id} ===\n`);
      const logStart = logSize(fd);
      const outcome = await this.runner.run(
        () => this.access.transport(execution.session_id, machine),
        {
          dir: `${machine.workRoot}/${execution.id}/${kind}-${attempt}`,
          script,
          env: { BW_EXECUTION_ID: execution.id, BW_STEP: kind, BW_ATTEMPT: String(attempt), BW_MACHINE: machine.id },
          timeoutMs: timeoutS * 1000,
        },
        (chunk: Buffer) => writeSync(fd, chunk),
        ctx.signal,
      );
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
        const found = this.catalog.parse(execution.tool_id, execution.workload_id, output);
        if (found.length === 0) {
          throw new BenchwrightError("step_failed", `run of ${execution.tool_id}/${execution.workload_id} on ${machine.id} exited 0, but its output holds no metrics`, {
            exit_code: 0,
          });
        }
        metrics.push(...found.map((m) => ({ ...m, vm: machine.id })));
      }
    }
    return kind === "run" ? metrics : null;
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
