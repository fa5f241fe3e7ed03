import { setTimeout as delay } from "node:timers/promises";
import { dirname } from "node:path";
import { paramEnv, type Catalog, type ParamValue, type RoleDefinition } from "@benchwright/catalog";
import type { StepResult } from "@benchwright/contract";
import { stepFields, type EngineLog, type LogFields } from "./engine-log.js";
import { BenchwrightError, isBenchwrightError, type ProblemExtras } from "./errors.js";
import { followIntoLog, logFilePath, maskingSecrets, type LogStore, type LogWriter } from "./logs/index.js";
import { readMachineFacts } from "./machines/facts.js";
import type { MachineAccess } from "./machines/machine-access.js";
import type { Machine } from "./providers/provider.js";
import { shellPath } from "./runner/shell-quote.js";
import type { StepHandle, StepOutcome, StepSpec } from "./runner/step.js";
import { attachStep, stopExecutionSteps } from "./runner/step-control.js";
import type { StepRunner } from "./runner/step-runner.js";
import { Scrubber } from "./secrets/scrub.js";
import { isLocalStorageFull, storageFullReason } from "./storage-full.js";
import { mainMetricSettled } from "./results/repetitions.js";
import { isHandBack, LeaseLost, SessionDeleted } from "./steps/hand-back.js";
import { machinesNeeded, partLabel, readyLine, roleEnv, stepParts, type StepPart } from "./steps/role-parts.js";
import type { Transport } from "./transport/transport.js";
import type { Store } from "./store/store.js";
import type { ExecutionRow, ExecutionState } from "./model/executions.js";
import type { VmRecord } from "./model/machines.js";
import type { StoredMetric } from "./model/metrics.js";
import type { StepEnd, StepKey, StepKind, StepRow } from "./model/steps.js";
import { formatDuration, formatTimestamp } from "./time.js";

/** Where each step may start from, and where it ends. */
const TRANSITIONS: Record<StepKind, { from: ExecutionState[]; during: ExecutionState; ok: ExecutionState; failed: ExecutionState }> = {
  // Prepare again after it succeeded or a run, as the Benchmarking Suite allowed: a new attempt that installs and loads anew.
  prepare: { from: ["created", "prepare_failed", "prepared", "completed", "run_failed"], during: "preparing", ok: "prepared", failed: "prepare_failed" },
  run: { from: ["prepared", "completed", "run_failed"], during: "running", ok: "completed", failed: "run_failed" },
};

export interface StepContext {
  execution: ExecutionRow;
  /** Resolves the session's machines, `count` at least where the provider makes them (creating them when needed). */
  machines: (count?: number) => Promise<Machine[]>;
  /** Seconds; the service type's `step_timeout`, when it sets one. */
  timeoutOverride?: number;
  /** Aborted with a HandBack: stop following, record nothing. Aborted otherwise: the step fails. */
  signal: AbortSignal;
  /** The lease holder: only it may record the step's end. */
  owner: string;
  /** Masks the session's credentials, in every form, in what the step's failure says. */
  scrubber?: Scrubber;
}

/** A step attempt this process followed to its end, as the metrics count it. */
export interface StepEnded {
  step: StepKind;
  outcome: "succeeded" | "failed";
  /** Seconds, as recorded. */
  duration: number;
}

/**
 * Prepare and run: the state machine around the runner, logs, metrics to the store. A step
 * is begun by whoever receives the request and driven by whichever process holds its lease;
 * a driver that takes over re-attaches to the detached process the step's row points at.
 */
export class StepExecutor {
  constructor(
    private readonly store: Store,
    /** The catalog as it is now: dropped-in definitions may change while the server runs. */
    private readonly catalog: () => Catalog,
    private readonly runner: StepRunner,
    private readonly access: MachineAccess,
    private readonly dataDir: string,
    /** Where step logs are kept: files on the embedded default, chunks in PostgreSQL otherwise. */
    private readonly logs: LogStore,
    private readonly log: EngineLog = () => {},
    /** Told of each step's end once its outcome is known, before it is recorded (a waiting answer may go out right after). */
    private readonly onEnd: (ended: StepEnded) => void = () => {},
    /** A secret per purpose, the same on every server (SecretBox.derive). */
    private readonly derive: (purpose: string) => string,
  ) {}

  #running = 0;

  /** Steps this process follows now. */
  get running(): number {
    return this.#running;
  }

  logFile(executionId: string, step: StepKind, attempt: number): string {
    return logFilePath(this.dataDir, { execution_id: executionId, step, attempt });
  }

  /**
   * Moves the execution into the step and opens its next attempt, leased to `claim`'s owner
   * when given; 409 when its state does not allow the step.
   */
  async begin(kind: StepKind, execution: ExecutionRow, claim?: { owner: string; leaseMs: number }): Promise<StepRow> {
    const t = TRANSITIONS[kind];
    const step = await this.store.beginStep(execution.id, kind, { from: t.from, to: t.during }, new Date(), (a) => this.logFile(execution.id, kind, a), claim);
    if (!step) {
      const now = await this.store.getExecution(execution.id);
      if (!(await this.store.sessionActive(execution.session_id))) {
        throw new BenchwrightError("session_deleted", `The session of execution ${execution.id} is being deleted or deleted`, { state: now?.state });
      }
      throw new BenchwrightError(
        "wrong_state",
        `Execution ${execution.id} is ${now?.state}; ${kind} needs ${t.from.join(" or ")}`,
        { state: now?.state },
      );
    }
    return step;
  }

  /**
   * Follows a claimed step to its end and records the outcome. Every way out records one,
   * except a hand-back (the process stops, or lost the lease): then the step stays `running`,
   * goes on detached, and its next holder re-attaches. The step's row as it ended, when this
   * holder recorded the end.
   */
  async drive(step: StepRow, ctx: StepContext): Promise<StepRow | null> {
    const { execution } = ctx;
    const kind = step.step;
    const t = TRANSITIONS[kind];
    const started = new Date(step.started);
    const key: StepKey = { execution_id: step.execution_id, step: kind, attempt: step.attempt };
    const about = stepFields(key, execution.session_id);
    // Read once: the catalog may change while the step runs (dropped-in definitions).
    const roles = this.catalog().workload(execution.tool_id, execution.workload_id)?.roles;
    const secret = roles ? this.stepSecret(execution, step) : undefined;
    // What a failure says masks the session's credentials and the step's secret, as the log does.
    const scrubber = secret ? (ctx.scrubber ?? new Scrubber()).with(secret) : ctx.scrubber;
    let log: LogWriter | undefined;
    let work: StepWork | undefined;
    let failure: BenchwrightError | undefined;
    // The machines the step reached: where its work dir is, when its session's DELETE began meanwhile.
    let reached: Machine[] = [];
    const resolving: StepContext = { ...ctx, machines: async (count) => (reached = await ctx.machines(count)) };
    this.#running++;
    let following = true;
    const stopFollowing = () => {
      if (following) this.#running--;
      following = false;
    };
    try {
      try {
        const opened = await this.logs.open(key, step.log_file, {
          // Followers of the log (and of /events) learn that it grew; losing one of these is harmless.
          onProgress: (bytes) =>
            void this.store.events
              .append({ type: "step.log", session_id: execution.session_id, execution_id: execution.id, data: { step: kind, attempt: step.attempt, bytes } })
              .catch(() => {}),
          onError: (e) => this.log(`cannot store the log of ${kind} ${step.attempt} of execution ${execution.id} yet: ${(e as Error).message}`, { ...about, level: "warn" }),
        });
        // The session's masking is made once per session; the step's secret, new each attempt, on its own.
        log = maskingSecrets(maskingSecrets(opened, ctx.scrubber), secret ? new Scrubber().add(secret) : undefined);
        work = await this.work(step, resolving, log, roles, secret);
      } catch (e) {
        if (isHandBack(e, ctx.signal)) {
          await log?.close(ctx.signal).catch(() => {});
          // Lost to a DELETE that ended the step (it waits a bounded time for its owner): nobody else cleans what it started since.
          if (ctx.signal.reason instanceof LeaseLost) await this.removeIfSessionGone(execution, reached, about);
          throw ctx.signal.reason ?? e;
        }
        const error = asStepError(e, kind, execution, step.attempt, log);
        // The output tails in it come from the host's files, past the log's masking.
        failure = scrubber ? scrubber.error(error) : error;
      }
      // Every byte is stored before the step's end is: a follower of the log ends once the step has.
      await log?.close(ctx.signal).catch((e: Error) =>
        this.log(`cannot store the end of the log of ${kind} ${step.attempt} of execution ${execution.id}: ${e.message}`, { ...about, level: "warn" }),
      );
      // The host's own record of when the work ended: time spent reconnecting is not the step's.
      const duration = Math.max(0, (Math.min(work?.endedAt ?? Date.now(), Date.now()) - started.getTime()) / 1000);
      const end: StepEnd = failure
        ? {
            state: "failed",
            duration,
            exit_code: failure.extras.exit_code ?? null,
            error: failure.detail,
            metrics: null,
            error_code: failure.code,
            error_extras: failure.extras as Record<string, unknown>,
          }
        : { state: "succeeded", duration, exit_code: 0, error: null, metrics: work!.metrics };
      // Counted before it is recorded: whoever waits for the step may answer the moment it is.
      stopFollowing();
      this.onEnd({ step: kind, outcome: end.state, duration });
      this.log(
        `${kind} ${step.attempt} of execution ${execution.id} ${end.state} in ${formatDuration(duration)} s${failure ? `: ${failure.detail}` : ""}`,
        { ...about, level: failure ? "warn" : "info" },
      );
      const recorded = await this.record(ctx, `${kind} ${step.attempt} of execution ${execution.id}`, about, () =>
        this.store.endStep(execution.id, kind, step.attempt, end, { from: t.during, to: failure ? t.failed : t.ok }, ctx.owner),
      );
      // Its session's DELETE began while it ran: what the step launched since the DELETE cleaned the host goes too.
      if (!recorded?.session_active) await this.removeIfSessionGone(execution, reached, about);
      return recorded;
    } finally {
      stopFollowing();
    }
  }

  /**
   * Kills what the execution runs on these machines and removes its work dir there, when its
   * session is no longer active. A DELETE cleans the hosts before and after it waits for the
   * steps' owners, but a step whose launch lands later, or that outlives that wait, is its
   * owner's to clean. Failures are logged: the step's outcome stands.
   */
  private async removeIfSessionGone(execution: ExecutionRow, machines: Machine[], about: LogFields): Promise<void> {
    if (machines.length === 0) return;
    try {
      if (await this.store.sessionActive(execution.session_id)) return;
    } catch {
      // The database is out: the DELETE (finished again on restart) cleans it.
      return;
    }
    await this.removeWorkDirs(execution.session_id, machines, [execution.id], (machine, e) =>
      this.log(`cannot remove the work dir of execution ${execution.id} on ${machine.id}: ${e.message}`, { ...about, level: "warn" }),
    );
  }

  /**
   * What the parts of a step attempt with roles share to guard a server (a database's
   * password): the same on every server, so a takeover derives it again.
   */
  private stepSecret(execution: ExecutionRow, step: StepRow): string {
    return this.derive(`step ${execution.id} ${step.step} ${step.attempt}`);
  }

  /** The answer to a finished step: its start and duration, or the problem it ended with. */
  answer(step: StepRow): StepResult {
    const t = TRANSITIONS[step.step];
    if (step.state === "succeeded") return { started: formatTimestamp(new Date(step.started)), duration: formatDuration(step.duration ?? 0) };
    const extras = (step.error_extras ?? {}) as ProblemExtras;
    throw new BenchwrightError((step.error_code as BenchwrightError["code"] | null) ?? "step_failed", step.error ?? `${step.step} failed`, {
      ...extras,
      exit_code: step.exit_code,
      execution_id: step.execution_id,
      step: step.step,
      attempt: step.attempt,
      state: t.failed,
    });
  }

  /**
   * The step's parts in turn (each machine's, or each role's on its machine): started, or
   * re-attached where its row says one is under way. A run's serving roles are started first
   * and stopped once the other parts have ended, however they ended.
   */
  private async work(step: StepRow, ctx: StepContext, log: LogWriter, roles: Record<string, RoleDefinition> | undefined, secret: string | undefined): Promise<StepWork> {
    const { execution, signal } = ctx;
    const kind = step.step;
    const machines = await ctx.machines(machinesNeeded(roles));
    const parts = stepParts(roles, machines);
    const timeoutS = this.timeoutOf(kind, ctx);
    const serving = kind === "run" ? parts.filter((p) => p.serves) : [];
    const measured = kind === "run" ? parts.filter((p) => !p.serves) : parts;
    let from = 0;
    if (step.machine_id) {
      from = measured.findIndex((p) => p.machine.id === step.machine_id && (partLabel(p) ?? null) === (step.role ?? null));
      if (from < 0) throw new BenchwrightError("step_failed", `${kind} was under way on machine ${step.machine_id}, which the session no longer has`);
    } else if (kind === "prepare") {
      await this.recordFacts(execution, machines);
    }
    // Only a prepare changes the machines' facts (recordFacts, just above): a run has them in its row.
    const vms = kind === "prepare" ? (await this.store.getExecution(execution.id))!.exec_env.vms : execution.exec_env.vms;
    const specOf = (part: StepPart, dir: string, round: number, ready: ReadonlyMap<string, Record<string, string>>) => () => {
      const platform = vms.find((v) => v.id === part.machine.id)?.platform || part.machine.platform;
      const opts = { platform, allowInstall: part.machine.allowInstall, ...(part.role === undefined ? {} : { role: part.role }) };
      const script =
        kind === "prepare"
          ? this.catalog().prepareScript(execution.tool_id, execution.workload_id, opts)
          : this.catalog().runScript(execution.tool_id, execution.workload_id, opts);
      return {
        dir,
        script,
        env: {
          // Parameter values travel as data in env.sh, never inside the script's text.
          ...paramEnv(this.paramsOf(execution)),
          ...roleEnv(part, parts, ready),
          // What a serving role guards itself with (a database's password), shared by the
          // parts of this attempt alone: in env.sh, which only the login user reads; a script
          // that prints it prints stars to the log (maskingSecrets).
          ...(part.role !== undefined && secret ? { BW_STEP_SECRET: secret } : {}),
          BW_EXECUTION_ID: execution.id,
          BW_STEP: kind,
          BW_ATTEMPT: String(step.attempt),
          BW_MACHINE: part.machine.id,
          BW_REPETITION: String(round),
        },
        timeoutMs: timeoutS * 1000,
      };
    };

    const ready = new Map<string, Record<string, string>>();
    const servingDirs = serving.map((part) => this.stepDir(part.machine, execution.id, kind, step.attempt, 1, partLabel(part)));
    // Taken over once a measured part had begun (the row names it): every serving part was
    // ready, and its output is in the log; it is re-attached only to learn what it said. Taken
    // over while they started: they are re-read from the start, and so is the log.
    const servedBefore = !!step.machine_id;
    if (serving.length > 0 && !servedBefore && log.bytes > 0) await log.truncate(0);
    try {
      for (const [i, part] of serving.entries()) {
        const spec = specOf(part, servingDirs[i], 1, ready);
        ready.set(partLabel(part)!, await this.serve(part, servingDirs[i], spec, ctx, servedBefore ? undefined : log, timeoutS));
      }
      const work = await this.measure(step, ctx, log, measured, from, timeoutS, (part, dir, round) => specOf(part, dir, round, ready));
      await this.stopServing(serving, servingDirs, step.attempt, ctx, log);
      return work;
    } catch (e) {
      // A hand-back leaves the step going on, servers included, for the next holder.
      if (!isHandBack(e, signal)) await this.stopServing(serving, servingDirs, step.attempt, ctx, log);
      throw e;
    }
  }

  /** The measured parts, in rounds for a repeated run: each part's script followed to its end and judged. */
  private async measure(
    step: StepRow,
    ctx: StepContext,
    log: LogWriter,
    parts: StepPart[],
    from: number,
    timeoutS: number,
    specOf: (part: StepPart, dir: string, round: number) => () => StepSpec,
  ): Promise<StepWork> {
    const { execution, signal } = ctx;
    const kind = step.step;
    const key: StepKey = { execution_id: step.execution_id, step: kind, attempt: step.attempt };
    // Metrics of the parts (machines, repetitions) an earlier holder finished.
    const metrics: StoredMetric[] = [...(step.metrics ?? [])];
    let endedAt: number | undefined;
    // A repeated run measures in rounds, every part in each.
    const plan = kind === "run" ? execution.repetitions : null;
    const rounds = plan ? ("count" in plan ? plan.count : plan.max) : 1;
    const repeated = rounds > 1;
    const fromRound = step.machine_id ? (step.repetition ?? 1) : 1;
    for (let round = fromRound; round <= rounds; round++) {
      for (let i = round === fromRound ? from : 0; i < parts.length; i++) {
        const part = parts[i];
        const { machine } = part;
        const label = partLabel(part);
        const dir = this.stepDir(machine, execution.id, kind, step.attempt, repeated ? round : 1, label);
        const transport = () => this.access.transport(execution.session_id, machine);
        const resuming = round === fromRound && i === from && step.machine_id === machine.id;
        let logStart: number;
        // Follows the step's process on the host from an offset of its log; the first call of a
        // fresh part starts it. A follow stopped to let the log drain re-attaches.
        let fresh = false;
        let deadline = new Date(step.started).getTime() + timeoutS * 1000;
        const spec = specOf(part, dir, round);
        const follow = async (fromOffset: number, onData: (chunk: Buffer) => void, sig: AbortSignal): Promise<StepOutcome> => {
          if (fresh) {
            fresh = false;
            deadline = Date.now() + timeoutS * 1000;
            return this.runner.run(transport, spec(), onData, sig);
          }
          const handle = await this.launched(transport, dir, null);
          if (!handle) throw new BenchwrightError("step_failed", `${kind} on ${machine.id} was to be under way, but it never started there`);
          const t = transport();
          try {
            return await this.runner.follow(t, handle, { fromOffset, onData, signal: sig, deadline });
          } finally {
            t.release();
          }
        };
        // A step that was under way here: follow its process if it was launched, else start it.
        const handle = resuming ? await this.launched(transport, dir, step.pgid) : undefined;
        if (handle) {
          logStart = Number(step.machine_log_start ?? 0);
        } else {
          if (resuming) await log.truncate(Number(step.machine_log_start ?? log.bytes));
          if (!resuming && (parts.length > 1 || repeated || label)) log.write(Buffer.from(`=== ${partTitle(kind, part, parts.length, repeated ? [round, rounds] : undefined)} ===\n`));
          logStart = log.bytes;
          // Stored before the handle names it: machine_log_start never points past the stored log.
          await log.flush(signal);
          const recorded = await this.store.recordStepHandle(key, ctx.owner, { machine_id: machine.id, role: label, repetition: round, pgid: null, machine_log_start: logStart, metrics });
          // Nothing starts on a host once the session's DELETE began: it may have cleaned the host already.
          if (recorded ? !recorded.sessionActive : !(await this.store.sessionActive(execution.session_id))) throw new SessionDeleted();
          fresh = true;
        }
        const outcome = await followIntoLog(log, logStart, follow, signal);
        let found: StoredMetric[];
        try {
          found = this.judge(kind, execution, machine, outcome, timeoutS, log, logStart, label);
        } catch (e) {
          throw outcome.unreachable ? e : await this.withOutputTails(e, transport, dir, signal);
        }
        const tagged = part.role === undefined ? found : found.map((m) => ({ ...m, role: part.role }));
        metrics.push(...(repeated ? tagged.map((m) => ({ ...m, repetition: round })) : tagged));
        endedAt = outcome.endedAt;
      }
      if (plan && "until_cv" in plan && round >= plan.min && mainMetricSettled(metrics, plan.until_cv)) break;
    }
    return { metrics: kind === "run" ? metrics : null, endedAt };
  }

  /**
   * Starts a serving role's part (or finds it started, after a takeover: the host launches a
   * dir once) and follows it until it says it is ready, keeping what it prints in the step's
   * log when given one (a part re-attached only to learn what it said was logged before). What
   * it said (`bw_ready port=5201`) the other parts get. A part that ends first, or passes the
   * step's time limit, fails the step.
   */
  private async serve(part: StepPart, dir: string, spec: () => StepSpec, ctx: StepContext, log: LogWriter | undefined, timeoutS: number): Promise<Record<string, string>> {
    const { execution } = ctx;
    log?.write(Buffer.from(`=== run, role ${partLabel(part)} on ${part.machine.id} ===\n`));
    const isReady = new AbortController();
    let said: Record<string, string> | undefined;
    let seen = "";
    const onData = (chunk: Buffer) => {
      log?.write(chunk);
      if (said) return;
      seen = (seen + chunk.toString("utf8")).slice(-READY_WINDOW);
      said = readyLine(seen);
      if (said) isReady.abort(READY);
    };
    const transport = () => this.access.transport(execution.session_id, part.machine);
    // As for a measured part (see measure): no server starts once the session's DELETE began.
    if (!(await this.store.sessionActive(execution.session_id))) throw new SessionDeleted();
    try {
      const outcome = await this.runner.run(transport, spec(), onData, AbortSignal.any([ctx.signal, isReady.signal]));
      if (said) return said;
      const how = outcome.timedOut ? `passed the step's time limit of ${timeoutS} s` : `exited with code ${outcome.exitCode ?? "none (killed)"}`;
      const error = new BenchwrightError("step_failed", `run of ${execution.tool_id}/${execution.workload_id} on ${part.machine.id} (role ${partLabel(part)}) ${how} before it was ready`, {
        exit_code: outcome.exitCode,
      });
      throw await this.withOutputTails(error, transport, dir, ctx.signal);
    } catch (e) {
      if (said && isReady.signal.aborted) return said;
      throw e;
    }
  }

  /** Stops the serving parts' processes (TERM, then KILL), however the step went: no server outlives its step. */
  private async stopServing(serving: StepPart[], dirs: string[], attempt: number, ctx: StepContext, log: LogWriter): Promise<void> {
    for (const [i, part] of serving.entries()) {
      const transport = () => this.access.transport(ctx.execution.session_id, part.machine);
      try {
        const handle = await this.launched(transport, dirs[i], null);
        if (!handle) continue;
        const t = transport();
        try {
          await this.runner.kill(t, handle);
        } finally {
          t.release();
        }
        log.write(Buffer.from(`=== run, role ${partLabel(part)} on ${part.machine.id} stopped ===\n`));
      } catch (e) {
        this.log(`cannot stop role ${partLabel(part)} of execution ${ctx.execution.id} on ${part.machine.id}: ${(e as Error).message}`, {
          ...stepFields({ execution_id: ctx.execution.id, step: "run", attempt }, ctx.execution.session_id),
          level: "warn",
        });
      }
    }
  }

  /**
   * A failed step's error with the ends of its stdout and its stderr, each on its own, as the
   * host recorded them (the log interleaves both). A host that cannot tell leaves them out:
   * the error itself matters more than its details.
   */
  private async withOutputTails(e: unknown, transport: () => Transport, dir: string, signal: AbortSignal): Promise<unknown> {
    if (!isBenchwrightError(e)) return e;
    const t = transport();
    try {
      const tails = await this.runner.outputTails(t, dir, TAIL_BYTES, signal);
      return new BenchwrightError(e.code, e.detail, { ...e.extras, ...tails }, { cause: e.cause });
    } catch {
      return e;
    } finally {
      t.release();
    }
  }

  /**
   * The values the execution was created with, over the defaults its workload declares now: a
   * parameter added to the definition since (a dropped-in file changed) still reaches the
   * script, which reads every declared one unconditionally.
   */
  private paramsOf(execution: ExecutionRow): Record<string, ParamValue> {
    const defaults = this.catalog().params(execution.tool_id, execution.workload_id).values;
    return { ...defaults, ...execution.params };
  }

  /** The handle of a step already launched in `dir` (known, or read from the host), if any. */
  private async launched(transport: () => Transport, dir: string, pgid: number | null): Promise<StepHandle | undefined> {
    if (pgid && pgid > 1) return { dir, pgid };
    const t = transport();
    try {
      return await attachStep(t, dir);
    } finally {
      t.release();
    }
  }

  /**
   * Writes a step's outcome, trying again until the database takes it: the outcome is known
   * and must not be lost to an outage. Only a hand-back gives up, leaving the step `running`
   * for its next holder.
   */
  private async record<T>(ctx: StepContext, what: string, about: LogFields, write: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await write();
      } catch (e) {
        if (isHandBack(e, ctx.signal)) throw ctx.signal.reason ?? e;
        this.log(`cannot record the outcome of ${what} yet (try ${attempt}): ${(e as Error).message}`, { ...about, level: "warn" });
        const wait = isHandBack(undefined, ctx.signal) ? undefined : ctx.signal.aborted ? undefined : ctx.signal;
        await delay(Math.min(250 * 2 ** (attempt - 1), 10_000), undefined, { signal: wait }).catch(() => {});
      }
    }
  }

  /** The metrics of a machine's part of a step, or the error that says why it failed. */
  private judge(
    kind: StepKind,
    execution: ExecutionRow,
    machine: Machine,
    outcome: StepOutcome,
    timeoutS: number,
    log: LogWriter,
    logStart: number,
    label?: string,
  ): StoredMetric[] {
    const on = label ? `${machine.id} (role ${label})` : machine.id;
    if (outcome.unreachable) {
      throw new BenchwrightError(
        "step_timeout",
        `${kind} of ${execution.tool_id}/${execution.workload_id} on ${on} passed its time limit of ${timeoutS} s while ${machine.ip} could not be reached; it was not killed and may still be running`,
        { exit_code: null },
      );
    }
    if (outcome.timedOut) {
      throw new BenchwrightError("step_timeout", `${kind} of ${execution.tool_id}/${execution.workload_id} on ${on} passed its time limit of ${timeoutS} s and was killed`, {
        exit_code: null,
      });
    }
    if (outcome.exitCode !== 0) {
      throw new BenchwrightError("step_failed", `${kind} of ${execution.tool_id}/${execution.workload_id} on ${on} exited with code ${outcome.exitCode ?? "none (killed)"}`, {
        exit_code: outcome.exitCode,
      });
    }
    if (kind === "run") {
      // The parser reads the tail of this machine's part of the log: enough for any tool's summary,
      // bounded so that a chatty workload cannot fill the server's memory.
      const output = log.tail(PARSE_WINDOW_BYTES, logStart);
      const found = this.catalog().parse(execution.tool_id, execution.workload_id, output);
      if (found.length === 0) {
        throw new BenchwrightError("step_failed", `run of ${execution.tool_id}/${execution.workload_id} on ${on} exited 0, but its output holds no metrics`, {
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

  /** A part's dir on its machine; a repetition after the first has its own, the first keeps the name a run that measures once has. */
  private stepDir(machine: Machine, executionId: string, kind: StepKind, attempt: number, repetition: number, label?: string): string {
    return `${machine.workRoot}/${executionId}/${kind}-${attempt}${label ? `-${label}` : ""}${repetition > 1 ? `-r${repetition}` : ""}`;
  }

  /** Ends, as failed, the steps of these executions still recorded as running (nobody follows them any more). */
  async abandon(executionIds: string[], reason: string): Promise<void> {
    if (executionIds.length === 0) return;
    for (const step of await this.store.runningSteps(executionIds)) {
      const t = TRANSITIONS[step.step];
      const duration = Math.max(0, (Date.now() - new Date(step.started).getTime()) / 1000);
      await this.store.endStep(
        step.execution_id,
        step.step,
        step.attempt,
        { state: "failed", duration, exit_code: null, error: reason, metrics: null, error_code: "step_failed" },
        { from: t.during, to: t.failed },
      );
    }
  }

  /** removeWorkDir of each execution on each machine; a machine that fails is told to `failed`, and the others go on. */
  async removeWorkDirs(sessionId: string, machines: Machine[], executionIds: string[], failed: (machine: Machine, e: Error) => void): Promise<void> {
    for (const machine of machines) {
      const transport = this.access.transport(sessionId, machine);
      try {
        for (const id of executionIds) await this.removeWorkDir(transport, machine, id);
      } catch (e) {
        failed(machine, e as Error);
      } finally {
        transport.release();
      }
    }
  }

  /**
   * Removes an execution's work dir on a machine, first killing any step still running in it
   * (a step outlives its follower by design, so deleting a session must stop it explicitly).
   */
  async removeWorkDir(transport: Transport, machine: Machine, executionId: string): Promise<void> {
    const dir = `${machine.workRoot}/${executionId}`;
    await stopExecutionSteps(transport, dir);
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

/** What a step's work gives back: its metrics (run only) and when, by the host's clock, it ended. */
interface StepWork {
  metrics: StoredMetric[] | null;
  /** Epoch ms; unset when no host reported it (the step then ends when it is recorded). */
  endedAt?: number;
}

const PARSE_WINDOW_BYTES = 8 * 1024 * 1024;
/** How much of a serving part's latest output is searched for its ready line. */
const READY_WINDOW = 64 * 1024;
/** Why a serving part's follow stops: it said it is ready (the part goes on). */
const READY = Symbol("ready");

/** A part's header in the step's log: `run on m1`, `run, role client on m2`, with its repetition. */
function partTitle(kind: StepKind, part: StepPart, parts: number, repetition?: [number, number]): string {
  const label = partLabel(part);
  const where = label ? ` on ${part.machine.id}` : parts > 1 ? ` on ${part.machine.id}` : "";
  const role = label ? `, role ${label}` : "";
  return repetition ? `${kind}${role}, repetition ${repetition[0]} of at most ${repetition[1]}${where}` : `${kind}${role}${where}`;
}
const TAIL_BYTES = 2048;

/** Any failure of a step becomes a problem that names the step and carries the output's tail. */
function asStepError(e: unknown, kind: StepKind, execution: ExecutionRow, attempt: number, log: LogWriter | undefined): BenchwrightError {
  const tail = log?.tail(TAIL_BYTES) ?? "";
  const base = isBenchwrightError(e)
    ? e
    : isLocalStorageFull(e)
      ? // However the step did on its host, what it said could not be kept: the operator's to fix, and then the step's to run again.
        new BenchwrightError(
          "insufficient_storage",
          `${kind} of ${execution.tool_id}/${execution.workload_id}: its log cannot be written, the server's storage is full (${storageFullReason(e)}); free space in its data directory and run it again`,
          {},
          { cause: e },
        )
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
