import { setTimeout as delay } from "node:timers/promises";
import { stepFields, type EngineLog, type LogFields } from "../engine-log.js";
import { BenchwrightError } from "../errors.js";
import { logFilePath, maskingSecrets, type LogStore, type LogWriter } from "../logs/index.js";
import type { MachineAccess } from "../machines/machine-access.js";
import type { Machine } from "../providers/provider.js";
import type { StepRunner } from "../runner/step-runner.js";
import { Scrubber } from "../secrets/scrub.js";
import type { Store } from "../store/store.js";
import type { CatalogOf, ExecutionDefinition, ExecutionRow } from "../model/executions.js";
import type { StepClaim, StepEnd, StepKey, StepKind, StepRow } from "../model/steps.js";
import { formatDuration } from "../time.js";
import { cancelOf, isHandBack, LeaseLost, type StepCancelled } from "./hand-back.js";
import type { StoredMetric } from "../model/metrics.js";
import { bootMetrics } from "./boot-metrics.js";
import { asStepError } from "./outcome.js";
import type { StepContext, StepTools, StepWork } from "./step-attempt.js";
import { work } from "./step-work.js";
import { TRANSITIONS } from "./transitions.js";
import { WorkDirs } from "./work-dirs.js";
import { workPlace } from "./work-place.js";

/** A step attempt this process followed to its end, as the metrics count it. */
export interface StepEnded {
  step: StepKind;
  outcome: "succeeded" | "failed";
  /** Seconds, as recorded. */
  duration: number;
}

export interface StepExecutorOptions {
  store: Store;
  /** The catalogue of an execution: the definition version it recorded, else the catalog as it is now (dropped-in definitions may change while the server runs). */
  catalog: CatalogOf;
  /** Loads the definition version an execution recorded, before `catalog` is asked for it. */
  pinCatalog?: (execution: ExecutionDefinition) => Promise<void>;
  runner: StepRunner;
  access: MachineAccess;
  dataDir: string;
  /** Where step logs are kept: files on the embedded default, chunks in PostgreSQL otherwise. */
  logs: LogStore;
  log?: EngineLog;
  /** Told of each step's end once its outcome is known, before it is recorded (a waiting answer may go out right after). */
  onEnd?: (ended: StepEnded) => void;
  /** A secret per purpose, the same on every server (SecretBox.derive). */
  derive: (purpose: string) => string;
}

/**
 * Prepare and run: the state machine around the runner, logs, metrics to the store. A step
 * is begun by whoever receives the request and driven by whichever process holds its lease;
 * a driver that takes over re-attaches to the detached process the step's row points at.
 */
export class StepExecutor {
  readonly workDirs: WorkDirs;
  readonly #options: StepExecutorOptions;
  readonly #tools: StepTools;
  #running = 0;

  constructor(options: StepExecutorOptions) {
    this.#options = options;
    const { store, catalog, runner, access, log = () => {} } = options;
    this.#tools = { store, catalog, runner, access, log, place: workPlace(options.dataDir) };
    this.workDirs = new WorkDirs({ access, runner });
  }

  /** Where this process runs parts on its own host: recorded by a step's first claim (work-place.ts). */
  get place(): string {
    return this.#tools.place;
  }

  /** Steps this process follows now. */
  get running(): number {
    return this.#running;
  }

  logFile(executionId: string, step: StepKind, attempt: number): string {
    return logFilePath(this.#options.dataDir, { execution_id: executionId, step, attempt });
  }

  /**
   * Moves the execution into the step and opens its next attempt, leased to `claim`'s owner
   * when given; 409 when its state does not allow the step.
   */
  async begin(kind: StepKind, execution: ExecutionRow, claim?: StepClaim): Promise<StepRow> {
    const { store } = this.#options;
    const t = TRANSITIONS[kind];
    const step = await store.steps.begin(execution.id, kind, { from: t.from, to: t.during }, new Date(), (a) => this.logFile(execution.id, kind, a), claim);
    if (!step) {
      const now = await store.executions.get(execution.id);
      if (!(await store.sessions.active(execution.session_id))) {
        throw new BenchwrightError("session_deleted", `The session of execution ${execution.id} is being deleted or deleted`, {
          state: now?.state,
        });
      }
      throw new BenchwrightError("wrong_state", `Execution ${execution.id} is ${now?.state}; ${kind} needs ${t.from.join(" or ")}`, {
        state: now?.state,
      });
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
    const { store, logs, catalog, pinCatalog, onEnd = () => {} } = this.#options;
    const { log: engineLog } = this.#tools;
    const { execution } = ctx;
    const kind = step.step;
    const t = TRANSITIONS[kind];
    const started = new Date(step.started);
    const key: StepKey = { execution_id: step.execution_id, step: kind, attempt: step.attempt };
    const about = stepFields(key, execution.session_id);
    // The version of its definition it recorded: a later version written meanwhile is not its own.
    await pinCatalog?.(execution);
    // Read once: the catalog may change while the step runs (dropped-in definitions).
    const workload = catalog(execution).workload(execution.tool_id, execution.workload_id);
    const roles = workload?.roles;
    const secret = roles ? this.stepSecret(execution, step) : undefined;
    // What a failure says masks the session's credentials and the step's secret, as the log does.
    const scrubber = secret ? (ctx.scrubber ?? new Scrubber()).with(secret) : ctx.scrubber;
    let log: LogWriter | undefined;
    let done: StepWork | undefined;
    let failure: BenchwrightError | undefined;
    let cancel: StepCancelled | undefined;
    // The machines the step reached: where its work dir is, when its session's DELETE began meanwhile.
    let reached: Machine[] = [];
    // How long the machines made for this step took to boot: the prepare's own metrics, failed or not (the machines stay).
    const booted: StoredMetric[] = [];
    const resolving: StepContext = {
      ...ctx,
      machines: async (count) => {
        reached = await ctx.machines(count);
        booted.push(...bootMetrics(reached));
        return reached;
      },
    };
    this.#running++;
    let following = true;
    const stopFollowing = () => {
      if (following) this.#running--;
      following = false;
    };
    try {
      try {
        const opened = await logs.open(key, step.log_file, {
          // Followers of the log (and of /events) learn that it grew; losing one of these is harmless.
          onProgress: (bytes) =>
            void store.events
              .append({
                type: "step.log",
                session_id: execution.session_id,
                execution_id: execution.id,
                data: { step: kind, attempt: step.attempt, bytes },
              })
              .catch(() => {}),
          onError: (e) =>
            engineLog(`cannot store the log of ${kind} ${step.attempt} of execution ${execution.id} yet: ${(e as Error).message}`, {
              ...about,
              level: "warn",
            }),
        });
        // The session's masking is made once per session; the step's secret, new each attempt, on its own.
        log = maskingSecrets(maskingSecrets(opened, ctx.scrubber), secret ? new Scrubber().add(secret) : undefined);
        done = await work(this.#tools, { step, ctx: resolving, log }, { roles, declared: workload?.params, secret });
      } catch (e) {
        if (isHandBack(e, ctx.signal)) {
          await log?.close(ctx.signal).catch(() => {});
          // Lost to a DELETE that ended the step (it waits a bounded time for its owner): nobody else cleans what it started since.
          if (ctx.signal.reason instanceof LeaseLost) await this.removeIfSessionGone(execution, reached, about);
          throw ctx.signal.reason ?? e;
        }
        cancel = cancelOf(e, ctx.signal);
        const error = cancel
          ? await this.stopCancelled(cancel, { execution, key, ctx, log, about }, reached)
          : asStepError(e, kind, execution, step.attempt, log);
        // The output tails in it come from the host's files, past the log's masking.
        failure = scrubber ? scrubber.error(error) : error;
      }
      // Every byte is stored before the step's end is: a follower of the log ends once the step has.
      // A cancel aborted the step's signal, not the storing of its log.
      await log?.close(cancel ? AbortSignal.timeout(LOG_CLOSE_AFTER_CANCEL_MS) : ctx.signal).catch((e: Error) =>
        engineLog(`cannot store the end of the log of ${kind} ${step.attempt} of execution ${execution.id}: ${e.message}`, {
          ...about,
          level: "warn",
        }),
      );
      // The host's own record of when the work ended: time spent reconnecting is not the step's.
      const duration = Math.max(0, (Math.min(done?.endedAt ?? Date.now(), Date.now()) - started.getTime()) / 1000);
      const end: StepEnd = failure
        ? {
            state: "failed",
            duration,
            exit_code: failure.extras.exit_code ?? null,
            error: failure.detail,
            metrics: kind === "prepare" && booted.length ? booted : null,
            error_code: failure.code,
            error_extras: failure.extras as Record<string, unknown>,
          }
        : { state: "succeeded", duration, exit_code: 0, error: null, metrics: kind === "prepare" && booted.length ? booted : done!.metrics };
      // Counted before it is recorded: whoever waits for the step may answer the moment it is.
      stopFollowing();
      onEnd({ step: kind, outcome: end.state, duration });
      engineLog(`${kind} ${step.attempt} of execution ${execution.id} ${end.state} in ${formatDuration(duration)} s${failure ? `: ${failure.detail}` : ""}`, {
        ...about,
        level: failure ? "warn" : "info",
      });
      const recorded = await this.record(ctx, `${kind} ${step.attempt} of execution ${execution.id}`, about, () =>
        store.steps.end({ execution_id: execution.id, step: kind, attempt: step.attempt }, end, { from: t.during, to: failure ? t.failed : t.ok }, ctx.owner),
      );
      // Its session's DELETE began while it ran: what the step launched since the DELETE cleaned the host goes too.
      if (!recorded?.session_active) await this.removeIfSessionGone(execution, reached, about);
      return recorded;
    } finally {
      stopFollowing();
    }
  }

  /**
   * Stops a cancelled step's parts on its machines (those it reached, or the session's when it
   * had not resolved them yet) before its end is recorded, so that a step begun after the
   * answer never meets them; says so in its log. The error it ends with: `step_cancelled`,
   * and where it could not be stopped.
   */
  private async stopCancelled(
    cancel: StepCancelled,
    at: { execution: ExecutionRow; key: StepKey; ctx: StepContext; log: LogWriter | undefined; about: LogFields },
    reached: Machine[],
  ): Promise<BenchwrightError> {
    const { execution, key, ctx, log, about } = at;
    const warn = (line: string) => this.#tools.log(line, { ...about, level: "warn" });
    const machines =
      reached.length > 0
        ? reached
        : ((await ctx.known?.().catch((e: Error) => {
            warn(`cannot list the machines of cancelled ${key.step} ${key.attempt} of execution ${execution.id}: ${e.message}`);
            return [];
          })) ?? []);
    const unstopped: string[] = [];
    await this.workDirs.stopAttempt(execution.session_id, machines, key, CANCEL_GRACE_S, (machine, e) => {
      unstopped.push(machine.id);
      warn(`cannot stop cancelled ${key.step} ${key.attempt} of execution ${execution.id} on ${machine.id}: ${e.message}`);
    });
    log?.write(Buffer.from(`=== ${key.step} ${key.attempt} ${cancel.message} ===\n`));
    const where = unstopped.length > 0 ? `; it could not be stopped on ${unstopped.join(", ")}, where it may still be running` : "";
    const detail = `${key.step} ${key.attempt} of ${execution.tool_id}/${execution.workload_id} was ${cancel.message}${where}`;
    return asStepError(new BenchwrightError("step_cancelled", detail, { exit_code: null }), key.step, execution, key.attempt, log);
  }

  /** Ends, as failed, the steps of these executions still recorded as running (nobody follows them any more). */
  async abandon(executionIds: string[], reason: string): Promise<void> {
    if (executionIds.length === 0) return;
    const { store } = this.#options;
    for (const step of await store.steps.running(executionIds)) {
      const t = TRANSITIONS[step.step];
      const duration = Math.max(0, (Date.now() - new Date(step.started).getTime()) / 1000);
      // One asked to cancel first (a plan run's cancel, before it deletes the run's sessions) ends cancelled.
      const end = step.cancel_requested
        ? { error: `${step.step} ${step.attempt} was ${step.cancel_requested}`, error_code: "step_cancelled" as const }
        : { error: reason, error_code: "step_failed" as const };
      await store.steps.end(
        { execution_id: step.execution_id, step: step.step, attempt: step.attempt },
        { state: "failed", duration, exit_code: null, metrics: null, ...end },
        { from: t.during, to: t.failed },
      );
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
      if (await this.#options.store.sessions.active(execution.session_id)) return;
    } catch {
      // The database is out: the DELETE (finished again on restart) cleans it.
      return;
    }
    await this.workDirs.removeAll(execution.session_id, machines, [execution.id], (machine, e) =>
      this.#tools.log(`cannot remove the work dir of execution ${execution.id} on ${machine.id}: ${e.message}`, {
        ...about,
        level: "warn",
      }),
    );
  }

  /**
   * What the parts of a step attempt with roles share to guard a server (a database's
   * password): the same on every server, so a takeover derives it again.
   */
  private stepSecret(execution: ExecutionRow, step: StepRow): string {
    return this.#options.derive(`step ${execution.id} ${step.step} ${step.attempt}`);
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
        this.#tools.log(`cannot record the outcome of ${what} yet (try ${attempt}): ${(e as Error).message}`, { ...about, level: "warn" });
        const wait = isHandBack(undefined, ctx.signal) ? undefined : ctx.signal.aborted ? undefined : ctx.signal;
        await delay(Math.min(250 * 2 ** (attempt - 1), 10_000), undefined, { signal: wait }).catch(() => {});
      }
    }
  }
}

/** Seconds a cancelled step's processes have between TERM and KILL, as a step past its time limit has (StepRunner's kill). */
const CANCEL_GRACE_S = 3;
/** How long a cancelled step's log may take to be stored. */
const LOG_CLOSE_AFTER_CANCEL_MS = 10_000;
