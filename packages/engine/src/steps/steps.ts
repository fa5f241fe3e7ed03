import { EventEmitter } from "node:events";
import type { CatalogOf, ExecutionDefinition } from "../model/executions.js";
import type { StepAttempt, StepResult } from "@benchwright/contract";
import { stepFields, type EngineLog } from "../engine-log.js";
import { BenchwrightError, isBenchwrightError } from "../errors.js";
import type { LogStore } from "../logs/index.js";
import type { MachineAccess } from "../machines/machine-access.js";
import type { SessionMachines } from "../machines/session-machines.js";
import type { Machine } from "../providers/provider.js";
import type { StepQueue } from "../queue/step-queue.js";
import { StepRunner } from "../runner/step-runner.js";
import type { Store } from "../store/store.js";
import type { StepKey, StepKind, StepRow } from "../model/steps.js";
import { stepAttemptView } from "../views/execution-views.js";
import { stepAnswer } from "./outcome.js";
import { executionRow, StepDriver } from "./step-driver.js";
import { StepExecutor, type StepEnded } from "./step-executor.js";
import { StepWorker, type StepWorkerOptions } from "./step-worker.js";

export type { StepEnded } from "./step-executor.js";

export interface StepsOptions {
  store: Store;
  /** The catalogue of an execution: the definition version it recorded, else the catalog as it is now (dropped-in definitions may change while the server runs). */
  catalog: CatalogOf;
  /** Loads the definition version an execution recorded, before `catalog` is asked for it. */
  pinCatalog?: (execution: ExecutionDefinition) => Promise<void>;
  access: MachineAccess;
  /** The session's configuration, scrubber and machines a step is driven with. */
  machines: SessionMachines;
  queue: StepQueue;
  logs: LogStore;
  dataDir: string;
  /** A secret per purpose, the same on every server (SecretBox.derive). */
  derive: (purpose: string) => string;
  log?: EngineLog;
  /** Whether this process runs steps (a worker); default true. */
  work?: boolean;
  worker?: StepWorkerOptions;
}

/**
 * A step's whole life: begun where it is asked for, taken by this process's worker or sent to
 * the queue, driven by the lease holder, waited for, ended, answered.
 */
export class Steps {
  readonly #store: Store;
  readonly #queue: StepQueue;
  readonly #log: EngineLog;
  readonly #executor: StepExecutor;
  readonly #worker: StepWorker | undefined;
  readonly #ended = new EventEmitter<{ ended: [StepEnded] }>().setMaxListeners(0);
  #closing = false;

  constructor(options: StepsOptions) {
    const { store, catalog, access, logs, dataDir, derive, log = () => {} } = options;
    this.#store = store;
    this.#queue = options.queue;
    this.#log = log;
    this.#executor = new StepExecutor({
      store,
      catalog,
      pinCatalog: options.pinCatalog,
      runner: new StepRunner(),
      access,
      dataDir,
      logs,
      log,
      onEnd: (ended) => this.#ended.emit("ended", ended),
      derive,
    });
    const driver = new StepDriver({ store, machines: options.machines, executor: this.#executor });
    if (options.work !== false) {
      this.#worker = new StepWorker(store, (step, owner, signal, begun) => driver.drive(step, owner, signal, begun), {
        log,
        ...options.worker,
        place: this.#executor.place,
      });
    }
  }

  /** Steps this process follows now. */
  get running(): number {
    return this.#executor.running;
  }

  /** Calls `listener` as each step this process follows ends (succeeded or failed, not handed back); returns its removal. */
  onEnded(listener: (ended: StepEnded) => void): () => void {
    this.#ended.on("ended", listener);
    return () => this.#ended.off("ended", listener);
  }

  /** Begins a step and hands it to the workers; returns the attempt, which goes on whoever asked. */
  async start(kind: StepKind, execId: string): Promise<StepAttempt> {
    if (this.#closing)
      throw new BenchwrightError("unavailable", "The server is stopping; send the request to another server or again shortly", {
        retry_after: 5,
      });
    const found = await this.#store.executions.getWithSession(execId);
    if (!found) throw new BenchwrightError("not_found", `No execution ${execId}`);
    const { execution, session } = found;
    if (session.state !== "active") {
      throw new BenchwrightError("session_deleted", `The session of execution ${execId} is ${session.state}`, { state: execution.state });
    }
    // A worker here with room takes it at once: begun leased to it (one write less than a claim
    // after), and driven with the rows just read (what a step uses of them never changes). The
    // queue is for the others (and the sweep finds the step if the send is lost).
    const worker = this.#worker?.hasRoom ? this.#worker : undefined;
    const step = await this.#executor.begin(kind, execution, worker?.claim);
    const key = { execution_id: execId, step: kind, attempt: step.attempt };
    const begun = { execution, session };
    const taken = worker ? worker.adopt(step, begun) : await this.#worker?.take(key, begun).catch(() => false);
    if (!taken) {
      await this.#queue.send(key).catch((e: Error) =>
        this.#log(`cannot queue ${kind} ${step.attempt} of execution ${execId}: ${e.message}; a worker's sweep will take it`, {
          ...stepFields(key, session.id),
          level: "warn",
        }),
      );
    }
    return stepAttemptView(step);
  }

  /** One step attempt of an execution. */
  async get(execId: string, kind: StepKind, attempt: number): Promise<StepAttempt> {
    await executionRow(this.#store, execId);
    const step = await this.#store.steps.get({ execution_id: execId, step: kind, attempt });
    if (!step) throw new BenchwrightError("not_found", `Execution ${execId} has no ${kind} attempt ${attempt}`);
    return stepAttemptView(step);
  }

  /** Waits until the attempt has ended (wherever it ran) and answers as the synchronous operation does. */
  async wait(attempt: Pick<StepAttempt, "execution_id" | "step" | "attempt">): Promise<StepResult> {
    const key = { execution_id: attempt.execution_id, step: attempt.step, attempt: attempt.attempt };
    // The row this process recorded the end with, when it did: no need to read it back.
    let ended: StepRow | undefined;
    // Whether the last wait ended by its timer rather than by the worker's word.
    let timedOut = false;
    for (;;) {
      if (ended) return stepAnswer(ended);
      // A step this process follows runs until its worker says otherwise (it ended, or was
      // handed back): the database is not read while it does, only after a long silence.
      const followed = this.#worker?.follows(key) ?? false;
      if (!followed || timedOut) {
        // The step goes on through a database outage, and so does the wait for it.
        const step = await this.#store.steps.get(key).catch((e: unknown) => {
          if (isBenchwrightError(e) && e.code === "unavailable" && !this.#closing) return "unreachable" as const;
          throw e;
        });
        if (!step) throw new BenchwrightError("not_found", `No ${key.step} attempt ${key.attempt} of execution ${key.execution_id}`);
        if (step !== "unreachable" && step.state !== "running") return stepAnswer(step);
        if (this.#closing) {
          throw new BenchwrightError("unavailable", `The server is stopping; ${key.step} ${key.attempt} goes on, and its state is at its step resource`, {
            retry_after: 5,
          });
        }
      }
      // Ended here: known at once. Ended elsewhere: seen at the next look.
      timedOut = false;
      // Asked again: it may have ended while the row was read, and then only a look tells.
      const told = this.#worker?.follows(key) ?? false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(
          () => {
            timedOut = true;
            done();
          },
          told ? FOLLOWED_LOOK_MS : STEP_POLL_MS,
        );
        const off = this.#worker?.onEnded(key, (row) => {
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

  /**
   * Cancels the execution's running step (prepare or run) wherever it runs. The request is
   * recorded on the step's row, where its follower reads it: at once when that is this
   * process's worker, at its next lease renewal when it is another process, when it takes the
   * step up when nobody follows it (this process's worker tries at once). The follower stops
   * the step's processes on its hosts and ends it failed (`step_cancelled`, with `reason`).
   * Whether it has ended within `waitMs`; no_running_step when nothing runs.
   */
  async cancel(execId: string, by: { requestId?: string } = {}, waitMs = CANCEL_WAIT_MS): Promise<boolean> {
    const execution = await executionRow(this.#store, execId);
    const reason = `cancelled at ${new Date().toISOString()}${by.requestId ? ` (request ${by.requestId})` : ""}`;
    const [running] = await this.#store.steps.running([execId]);
    const key: StepKey | undefined = running && { execution_id: execId, step: running.step, attempt: running.attempt };
    // Null when the step ended between the two reads.
    const asked = key && (await this.#store.steps.requestCancel(key, reason));
    if (!key || !asked) {
      const state = (await this.#store.executions.get(execId))?.state ?? execution.state;
      throw new BenchwrightError("no_running_step", `Execution ${execId} is ${state}; no prepare or run is under way to cancel`, { state });
    }
    // A cancel sent again while the step stops keeps the first one's words.
    const words = asked.cancel_requested ?? reason;
    this.#log(`${key.step} ${key.attempt} of execution ${execId} ${words}`, { ...stepFields(key, execution.session_id) });
    if (this.#worker && !this.#worker.cancel(key, words)) await this.#worker.take(key).catch(() => false);
    return this.#endsWithin(key, waitMs);
  }

  /**
   * Asks the running steps of these executions to cancel, with `reason` (`cancelled at ...`),
   * as `cancel` does, without waiting for them to end: a plan run's cancel, before it deletes
   * their sessions, so that they end `step_cancelled` rather than as failed by the DELETE.
   */
  async cancelExecutions(executionIds: string[], reason: string): Promise<void> {
    if (executionIds.length === 0) return;
    for (const running of await this.#store.steps.running(executionIds)) {
      const key: StepKey = { execution_id: running.execution_id, step: running.step, attempt: running.attempt };
      const asked = await this.#store.steps.requestCancel(key, reason);
      if (!asked) continue;
      const words = asked.cancel_requested ?? reason;
      if (this.#worker && !this.#worker.cancel(key, words)) await this.#worker.take(key).catch(() => false);
    }
  }

  /** Whether the attempt is (or comes to be) no longer running within `maxMs`. */
  async #endsWithin(key: StepKey, maxMs: number): Promise<boolean> {
    const until = Date.now() + maxMs;
    for (;;) {
      const step = await this.#store.steps.get(key);
      if (step?.state !== "running") return true;
      if (Date.now() >= until || this.#closing) return false;
      await new Promise((r) => setTimeout(r, STEP_POLL_MS));
    }
  }

  /** Starts taking steps: those sent to the queue, and those nobody holds (the worker's sweep). */
  async startWorking(): Promise<void> {
    if (!this.#worker || this.#closing) return;
    const worker = this.#worker;
    worker.start();
    await this.#queue.work((key) => worker.take(key).then(() => {}));
  }

  /**
   * Begins no more steps and hands back those followed here (they go on detached on their
   * hosts, and another worker, or this one restarted, takes them up), within `deadlineMs`.
   */
  async stop(deadlineMs: number): Promise<void> {
    this.#closing = true;
    await this.#worker?.stop(deadlineMs);
  }

  /** Ends the steps of these executions that this process follows: their session is being deleted. */
  async stopExecutions(executionIds: string[]): Promise<void> {
    await this.#worker?.stopExecutions(executionIds);
  }

  /** Kills what these executions run on the machines and removes their work dirs; a machine that fails is told to `failed`, and the others go on. */
  async removeWorkDirs(sessionId: string, machines: Machine[], executionIds: string[], failed: (machine: Machine, e: Error) => void): Promise<void> {
    await this.#executor.workDirs.removeAll(sessionId, machines, executionIds, failed);
  }

  /** Ends, as failed, the steps of these executions still recorded as running (nobody follows them any more). */
  async abandon(executionIds: string[], reason: string): Promise<void> {
    await this.#executor.abandon(executionIds, reason);
  }

  /** Waits (a bounded time) until no live owner follows a step of these executions. */
  async waitEnded(executionIds: string[], maxMs: number): Promise<void> {
    const until = Date.now() + maxMs;
    while (Date.now() < until && (await this.#store.leases.held(executionIds)).length > 0) {
      await new Promise((r) => setTimeout(r, STEP_POLL_MS));
    }
  }
}

/**
 * How long a cancel waits for the step to end before it answers that it goes on: another
 * process's follower sees the request at its next renewal (2 s), then gives the step's
 * processes 3 s to end before it kills them.
 */
const CANCEL_WAIT_MS = 15_000;

/** How often a waiter looks at a step that runs elsewhere; a step that ends here is known at once. */
const STEP_POLL_MS = 200;
/**
 * How long a waiter for a step this process follows waits for its worker's word before it
 * reads the step's row all the same: the worker tells of every end and hand-back, so this is
 * a safeguard, not a poll (issue 36: reads every 200 ms took the embedded database from the
 * step they waited for).
 */
const FOLLOWED_LOOK_MS = 5_000;
