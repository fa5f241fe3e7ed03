import { randomBytes } from "node:crypto";
import { BenchwrightError } from "../errors.js";
import { timerDelay } from "../time.js";
import { sleep } from "../transport/backoff.js";
import type { Transport } from "../transport/transport.js";
import { isRetryableTransportError, TransportError } from "../transport/transport-error.js";
import { Attachment } from "./attachment.js";
import { FollowerStderr } from "./follower-stderr.js";
import { envFileContent } from "./env-file.js";
import { checkPgid, ended, startFailed } from "./host-reports.js";
import { followScript, parseEnd, type End, type FollowParams } from "./follow-script.js";
import { killScript, mkdirScript, outputTailsScript, parseOutputTail, parsePgid, removeScript, startScript, telemetryReadScript } from "./remote-scripts.js";
import { removable } from "./remove-guard.js";
import type { StepHandle, StepOutcome, StepSpec } from "./step.js";
import type { FollowOptions, StepRunnerOptions } from "./step-runner-options.js";

/** The longest one follow command runs before the runner starts a fresh one. */
const MAX_FOLLOW_SECONDS = 600;

/**
 * Above this size the start command would come near the limit of one argument (128 KiB on
 * Linux): the step's files are uploaded first instead of travelling inside it.
 */
const INLINE_LIMIT_BYTES = 64 * 1024;

/** The outcome with the telemetry its follower sent, when it sent some. */
function withTelemetry(outcome: StepOutcome, telemetry: string | undefined): StepOutcome {
  return telemetry === undefined ? outcome : { ...outcome, telemetry };
}

/** Distinguishes the runner's own deadline from a caller's abort. */
class DeadlineReached extends Error {}

/**
 * Runs steps on a target with the detached step protocol: the script runs
 * in its own session under `<dir>`, writes `step.log` and finally `step.rc`; the runner
 * follows the log by byte offset, so it can lose the connection, or be restarted, and
 * pick up where it was. One command writes the step's files, launches it and follows it to
 * its end (remote-scripts.ts); a repeated start re-attaches to what the first one launched.
 */
export class StepRunner {
  readonly #reattachDelayMs: number;
  readonly #maxReattachDelayMs: number;
  readonly #afterDeadlineMs: number;
  readonly #killGraceSeconds: number;
  readonly #pollMs: number;

  constructor(options: StepRunnerOptions = {}) {
    this.#reattachDelayMs = options.reattachDelayMs ?? 500;
    this.#maxReattachDelayMs = Math.max(this.#reattachDelayMs, options.maxReattachDelayMs ?? 15_000);
    this.#afterDeadlineMs = options.afterDeadlineMs ?? 60_000;
    this.#killGraceSeconds = options.killGraceSeconds ?? 3;
    this.#pollMs = Math.max(1, options.pollIntervalMs ?? 100);
  }

  /**
   * Writes step.sh and env.sh and starts the step detached, unless it was started in that dir
   * already: then it returns the handle of that step.
   */
  async start(transport: Transport, spec: StepSpec): Promise<StepHandle> {
    const r = await transport.exec(await this.#startCommand(transport, spec));
    const pgid = parsePgid(r.stderr);
    if (pgid === undefined) throw startFailed(spec.dir, transport, r.stderr || r.stdout);
    checkPgid(pgid);
    return { dir: spec.dir, pgid };
  }

  /** Follows a started step until it ends, its deadline passes or `signal` aborts. Re-attaches over the same transport after a drop. */
  follow(transport: Transport, handle: StepHandle, options: FollowOptions): Promise<StepOutcome> {
    checkPgid(handle.pgid);
    return this.#follow(new Attachment(() => transport, false), { handle }, options);
  }

  /**
   * Starts a step and follows it to its end, its deadline counted from the launch. After a
   * lost connection it asks `getTransport` for a fresh transport (releasing the old one)
   * and goes on; every transport it got is released when it returns.
   */
  async run(
    getTransport: () => Transport,
    spec: StepSpec,
    onData: (chunk: Buffer) => void,
    signal?: AbortSignal,
    onLaunched?: (handle: StepHandle) => void,
  ): Promise<StepOutcome> {
    const attachment = new Attachment(getTransport, true);
    try {
      // Until the launch, the time limit counts from the call: a host that cannot be reached
      // is tried again until then.
      return await this.#follow(
        attachment,
        { spec },
        { fromOffset: 0, onData, signal, deadline: Date.now() + spec.timeoutMs, telemetry: !!spec.telemetry, onLaunched },
      );
    } finally {
      attachment.release();
    }
  }

  /** Kills the step's whole process group: TERM, then KILL after the grace time. */
  async kill(transport: Transport, handle: StepHandle, signal?: AbortSignal): Promise<void> {
    checkPgid(handle.pgid);
    const r = await transport.exec(killScript(handle.pgid, this.#killGraceSeconds, handle.dir), { signal });
    if (r.code !== 0) throw new BenchwrightError("internal", `Cannot kill step ${handle.dir} on ${transport.description}: ${r.stderr.trim()}`);
  }

  /**
   * Deletes a step's (or an execution's) work dir. Only a path below a `.benchwright`
   * directory, or strictly below `root`, is accepted: anything else is refused.
   */
  async remove(transport: Transport, dir: string, root?: string): Promise<void> {
    if (!removable(dir, root)) {
      throw new BenchwrightError("internal", `Refusing to remove ${JSON.stringify(dir)}: not below a .benchwright directory${root ? ` or ${root}` : ""}`);
    }
    const r = await transport.exec(removeScript(dir));
    if (r.code !== 0) throw new BenchwrightError("internal", `Cannot remove ${dir} on ${transport.description}: ${r.stderr.trim()}`);
  }

  /**
   * The last `bytes` of a step's stdout and of its stderr, each on its own (step.out and
   * step.err, which the step protocol keeps beside the merged step.log). A stream the host
   * did not record is left out.
   */
  async outputTails(transport: Transport, dir: string, bytes: number, signal?: AbortSignal): Promise<{ stdout?: string; stderr?: string }> {
    const r = await transport.exec(outputTailsScript(dir, bytes), { signal });
    const stdout = parseOutputTail(r.stdout);
    const stderr = parseOutputTail(r.stderr);
    return { ...(stdout !== undefined ? { stdout } : {}), ...(stderr !== undefined ? { stderr } : {}) };
  }

  /** What the step's sampler wrote in its dir (telemetry.log), from byte `offset`; empty when it has none. */
  async telemetry(transport: Transport, dir: string, offset = 0, signal?: AbortSignal): Promise<string> {
    const r = await transport.exec(telemetryReadScript(dir, offset), { signal });
    if (r.code !== 0) throw new BenchwrightError("internal", `Cannot read the telemetry of ${dir} on ${transport.description}: ${r.stderr.trim()}`);
    return r.stdout;
  }

  /**
   * The command that starts a step (or re-attaches to it) and follows it when `follow` is
   * given. Small files travel inside it; larger ones are uploaded first under a name of
   * their own, which the command moves into place only if it is the one to launch.
   */
  async #startCommand(transport: Transport, spec: StepSpec, follow?: FollowParams, signal?: AbortSignal): Promise<string> {
    const env = envFileContent(spec.env);
    const sampler = spec.telemetry?.intervalMs;
    const inline = startScript(spec.dir, { inline: { script: spec.script, env } }, follow, sampler);
    if (Buffer.byteLength(inline) <= INLINE_LIMIT_BYTES) return inline;
    const r = await transport.exec(mkdirScript(spec.dir), { signal });
    if (r.code !== 0) throw new BenchwrightError("step_failed", `Cannot create ${spec.dir} on ${transport.description}: ${r.stderr.trim()}`);
    const tag = randomBytes(8).toString("hex");
    await transport.writeFile(`${spec.dir}/step.sh.${tag}`, spec.script, 0o600);
    await transport.writeFile(`${spec.dir}/env.sh.${tag}`, env, 0o600);
    return startScript(spec.dir, { stagedAs: tag }, follow, sampler);
  }

  /**
   * Follows a step (starting it first when given its spec) by one command after another:
   * each streams the log from the offset reached and ends with a marker; a command that dies
   * without one (a dropped connection) is followed by another, after a pause.
   */
  async #follow(attachment: Attachment, target: { spec: StepSpec } | { handle: StepHandle }, options: FollowOptions): Promise<StepOutcome> {
    const spec = "spec" in target ? target.spec : undefined;
    let handle = "handle" in target ? target.handle : undefined;
    let deadlineAt = options.deadline;
    let offset = options.fromOffset;
    let failures = 0;
    let rereadShort = false;
    for (;;) {
      options.signal?.throwIfAborted();
      const remaining = deadlineAt - Date.now();
      if (remaining <= 0) {
        if (handle) return this.#timedOut(attachment, handle, offset, options);
        throw new TransportError(`${attachment.transport.description} could not be reached in time`, { retryable: true });
      }

      const deadline = new AbortController();
      // A time limit past what a timer holds is armed again here, after each follow command (at most MAX_FOLLOW_SECONDS).
      let timer = setTimeout(() => deadline.abort(new DeadlineReached()), timerDelay(remaining));
      const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
      const follow = {
        offset,
        maxSeconds: Math.min(MAX_FOLLOW_SECONDS, Math.ceil(remaining / 1000) + 5),
        pollMs: this.#pollMs,
        telemetry: options.telemetry,
      };
      const stderr = new FollowerStderr();
      let progressed = false;
      let consumerError: unknown;
      let lost = false;
      let exit: number | null = null;
      const transport = attachment.transport;
      try {
        const command = handle ? followScript(handle.dir, handle.pgid, follow) : await this.#startCommand(transport, spec!, follow, signal);
        const r = await transport.exec(command, {
          signal,
          onStdout: (chunk) => {
            if (consumerError !== undefined) return;
            offset += chunk.length;
            progressed = true;
            try {
              options.onData(chunk);
            } catch (e) {
              consumerError = e;
              deadline.abort(e);
            }
          },
          // The pgid, the end marker and heartbeat dots come here: keep the tail.
          onStderr: (chunk) => {
            stderr.push(chunk);
            if (handle) return;
            const pgid = parsePgid(stderr.text);
            // The script refuses 0 and 1 itself (`kill -- -1` would signal every process of the user).
            if (pgid === undefined || pgid <= 1) return;
            // Launched (or found launched): the time limit counts from now.
            handle = { dir: spec!.dir, pgid };
            options.onLaunched?.(handle);
            deadlineAt = Date.now() + spec!.timeoutMs;
            clearTimeout(timer);
            timer = setTimeout(() => deadline.abort(new DeadlineReached()), timerDelay(spec!.timeoutMs));
          },
        });
        exit = r.code;
      } catch (e) {
        if (consumerError !== undefined) throw consumerError;
        if (options.signal?.aborted) throw options.signal.reason;
        if (deadline.signal.aborted) {
          if (handle) return this.#timedOut(attachment, handle, offset, options);
          throw new TransportError(`${transport.description} could not be reached in time`, { retryable: true, cause: e });
        }
        if (!isRetryableTransportError(e)) throw e;
        lost = true;
      } finally {
        clearTimeout(timer);
      }

      if (!handle) {
        // Not launched, or not known to be: a start that failed says why; a lost one is tried
        // again (the lock keeps it from launching twice).
        // A command killed by a signal (its session torn down) tells nothing either.
        if (!lost && exit !== null) throw startFailed(spec!.dir, transport, stderr.text, exit);
      } else {
        const end = lost ? undefined : parseEnd(stderr.text);
        if (end?.kind === "rc" || end?.kind === "gone") {
          // Every byte written before the end has been sent; read again if some went missing.
          if (end.size !== undefined && offset < end.size && !rereadShort) {
            rereadShort = true;
            continue;
          }
          const outcome: StepOutcome = end.kind === "rc" ? ended(end, offset) : { exitCode: null, timedOut: false, logBytes: offset };
          return withTelemetry(outcome, stderr.telemetry);
        }
        if (end?.kind === "nodir") throw new BenchwrightError("step_failed", `The step directory ${handle.dir} is gone from ${transport.description}`);
        if (end?.kind === "wait") {
          failures = 0;
          continue;
        }
      }
      // The connection dropped or the follow command died without its end marker: the step
      // goes on (or has ended) on its host, so re-attach from `offset` until the deadline.
      failures = progressed ? 1 : failures + 1;
      attachment.replace();
      await this.#pause(failures, deadlineAt, options.signal);
    }
  }

  /** The wait before attempt `failures + 1` to reach the host, never past `until`. */
  async #pause(failures: number, until: number, signal?: AbortSignal): Promise<void> {
    const delay = Math.min(this.#maxReattachDelayMs, this.#reattachDelayMs * 2 ** Math.min(20, failures - 1));
    await sleep(Math.max(0, Math.min(delay, until - Date.now())), signal);
  }

  /**
   * Kills the group, then sends what the step wrote before it died. A host still out of
   * reach `afterDeadlineMs` past the deadline gives an outcome that says so: the log so far
   * has been delivered, and the step may still be running there.
   */
  async #timedOut(attachment: Attachment, handle: StepHandle, offset: number, options: FollowOptions): Promise<StepOutcome> {
    const until = Math.max(options.deadline, Date.now()) + this.#afterDeadlineMs;
    let end: End | undefined;
    let telemetry: string | undefined;
    try {
      await this.#retrying(attachment, (t, signal) => this.kill(t, handle, signal), until, options.signal);
      await this.#retrying(
        attachment,
        async (t, signal) => {
          const stderr = new FollowerStderr();
          await t.exec(followScript(handle.dir, handle.pgid, { offset, maxSeconds: 0, pollMs: this.#pollMs, telemetry: options.telemetry }), {
            signal,
            onStdout: (chunk) => {
              offset += chunk.length;
              options.onData(chunk);
            },
            onStderr: (chunk) => stderr.push(chunk),
          });
          end = parseEnd(stderr.text);
          telemetry = stderr.telemetry;
        },
        until,
        options.signal,
      );
    } catch (e) {
      if (!isRetryableTransportError(e) || options.signal?.aborted) throw e;
      return { exitCode: null, timedOut: true, logBytes: offset, unreachable: true };
    }
    // The step may have ended on its own (in the last instant, or while its host was out of reach): then its code stands.
    const finished = end as End | undefined;
    if (finished?.kind === "rc") return withTelemetry(ended(finished, offset), telemetry);
    return withTelemetry({ exitCode: null, timedOut: true, logBytes: offset }, telemetry);
  }

  /**
   * Runs `op`, attaching again after a lost connection, until it succeeds or `until` passes;
   * `op`'s signal aborts at `until`, so that one attempt cannot outlast it.
   */
  async #retrying<T>(attachment: Attachment, op: (t: Transport, signal: AbortSignal) => Promise<T>, until: number, signal?: AbortSignal): Promise<T> {
    for (let failures = 1; ; failures++) {
      signal?.throwIfAborted();
      const timeUp = AbortSignal.timeout(Math.max(0, until - Date.now()));
      const t = attachment.transport;
      try {
        return await op(t, signal ? AbortSignal.any([signal, timeUp]) : timeUp);
      } catch (e) {
        if (signal?.aborted) throw signal.reason;
        if (timeUp.aborted) throw new TransportError(`${t.description} could not be reached in time`, { retryable: true, cause: e });
        if (!isRetryableTransportError(e) || Date.now() >= until) throw e;
        attachment.replace();
        await this.#pause(failures, until, signal);
      }
    }
  }
}
