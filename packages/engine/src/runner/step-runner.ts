import { BenchwrightError } from "../errors.js";
import { sleep } from "../transport/backoff.js";
import type { Transport } from "../transport/transport.js";
import { isRetryableTransportError } from "../transport/transport-error.js";
import { envFileContent } from "./env-file.js";
import { followScript, killScript, launchScript, prepareScript, removeScript } from "./remote-scripts.js";
import type { StepHandle, StepOutcome, StepSpec } from "./step.js";

export interface StepRunnerOptions {
  /** Failed attempts in a row (without a byte of progress) before a lost connection is final; default 5. */
  maxReattachAttempts?: number;
  /** Pause before re-attaching, times the failures so far; the pool adds its own backoff. Default 500 ms. */
  reattachDelayMs?: number;
  /** Time between TERM and KILL when a step is killed; default 3 s. */
  killGraceSeconds?: number;
}

export interface FollowOptions {
  /** Bytes of step.log already delivered: following resumes right after them. */
  fromOffset: number;
  /** Receives the log in order, each byte once; called synchronously as bytes arrive. */
  onData(chunk: Buffer): void;
  /** Stops following (the step goes on): the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Epoch ms past which the step's process group is killed and the outcome says timedOut. */
  deadline: number;
}

/** The longest one follow command runs before the runner starts a fresh one. */
const MAX_FOLLOW_SECONDS = 600;

/** Distinguishes the runner's own deadline from a caller's abort. */
class DeadlineReached extends Error {}

/**
 * Runs steps on a target with the detached step protocol (ARCHITECTURE.md): the script runs
 * in its own session under `<dir>`, writes `step.log` and finally `step.rc`; the runner
 * follows the log by byte offset, so it can lose the connection, or be restarted, and
 * pick up where it was.
 */
export class StepRunner {
  readonly #maxReattach: number;
  readonly #reattachDelayMs: number;
  readonly #killGraceSeconds: number;

  constructor(options: StepRunnerOptions = {}) {
    this.#maxReattach = options.maxReattachAttempts ?? 5;
    this.#reattachDelayMs = options.reattachDelayMs ?? 500;
    this.#killGraceSeconds = options.killGraceSeconds ?? 3;
  }

  /** Creates the step dir, uploads step.sh and env.sh and starts the step detached. */
  async start(transport: Transport, spec: StepSpec): Promise<StepHandle> {
    await this.#prepare(transport, spec);
    return this.#launch(transport, spec.dir);
  }

  /** Follows a started step until it ends, its deadline passes or `signal` aborts. Re-attaches over the same transport after a drop. */
  follow(transport: Transport, handle: StepHandle, options: FollowOptions): Promise<StepOutcome> {
    return this.#follow(new Attachment(() => transport, false), handle, options);
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
  ): Promise<StepOutcome> {
    const attachment = new Attachment(getTransport, true);
    try {
      await this.#retrying(attachment, (t) => this.#prepare(t, spec), signal);
      // Retried alone: the launch script's lock keeps a repeated launch from starting a second step.
      const handle = await this.#retrying(attachment, (t) => this.#launch(t, spec.dir), signal);
      return await this.#follow(attachment, handle, {
        fromOffset: 0,
        onData,
        signal,
        deadline: Date.now() + spec.timeoutMs,
      });
    } finally {
      attachment.release();
    }
  }

  /** Kills the step's whole process group: TERM, then KILL after the grace time. */
  async kill(transport: Transport, handle: StepHandle): Promise<void> {
    checkPgid(handle.pgid);
    const r = await transport.exec(killScript(handle.pgid, this.#killGraceSeconds));
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

  async #prepare(transport: Transport, spec: StepSpec): Promise<void> {
    const env = envFileContent(spec.env);
    const r = await transport.exec(prepareScript(spec.dir));
    if (r.code !== 0) throw new BenchwrightError("step_failed", `Cannot create ${spec.dir} on ${transport.description}: ${r.stderr.trim()}`);
    await transport.writeFile(`${spec.dir}/step.sh`, spec.script, 0o700);
    await transport.writeFile(`${spec.dir}/env.sh`, env, 0o600);
  }

  async #launch(transport: Transport, dir: string): Promise<StepHandle> {
    const r = await transport.exec(launchScript(dir));
    const pgid = Number(/^pgid:(\d+)$/m.exec(r.stdout)?.[1]);
    if (r.code !== 0 || !Number.isInteger(pgid) || pgid <= 1) {
      throw new BenchwrightError("step_failed", `Cannot start the step in ${dir} on ${transport.description}: ${r.stderr.trim() || r.stdout.trim()}`);
    }
    return { dir, pgid };
  }

  async #follow(attachment: Attachment, handle: StepHandle, options: FollowOptions): Promise<StepOutcome> {
    checkPgid(handle.pgid);
    let offset = options.fromOffset;
    let failures = 0;
    for (;;) {
      options.signal?.throwIfAborted();
      const remaining = options.deadline - Date.now();
      if (remaining <= 0) return this.#timedOut(attachment, handle, offset, options);

      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(new DeadlineReached()), remaining);
      const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
      const maxSeconds = Math.min(MAX_FOLLOW_SECONDS, Math.ceil(remaining / 1000) + 5);
      let stderr = "";
      let progressed = false;
      let consumerError: unknown;
      let lost: unknown;
      try {
        await attachment.transport.exec(followScript(handle.dir, handle.pgid, offset, maxSeconds), {
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
          // Only the end marker and heartbeat dots come here: keep the tail.
          onStderr: (chunk) => (stderr = (stderr + chunk.toString("latin1")).slice(-1024)),
        });
      } catch (e) {
        if (consumerError !== undefined) throw consumerError;
        if (options.signal?.aborted) throw options.signal.reason;
        if (deadline.signal.aborted) return this.#timedOut(attachment, handle, offset, options);
        if (!isRetryableTransportError(e)) throw e;
        lost = e;
      } finally {
        clearTimeout(timer);
      }

      const end = lost === undefined ? parseEnd(stderr) : undefined;
      if (end?.kind === "rc") return { exitCode: end.code, timedOut: false, logBytes: offset };
      if (end?.kind === "gone") return { exitCode: null, timedOut: false, logBytes: offset };
      if (end?.kind === "nodir") throw new BenchwrightError("step_failed", `The step directory ${handle.dir} is gone from ${attachment.transport.description}`);
      if (end?.kind === "wait") {
        failures = 0;
        continue;
      }
      // The connection dropped or the follow command died without its end marker: re-attach from `offset`.
      failures = progressed ? 1 : failures + 1;
      if (failures > this.#maxReattach) {
        throw lost ?? new BenchwrightError("step_failed", `Following step ${handle.dir} on ${attachment.transport.description} keeps failing`);
      }
      attachment.replace();
      await sleep(this.#reattachDelayMs * failures, options.signal);
    }
  }

  /** Kills the group, then sends what the step wrote before it died. */
  async #timedOut(attachment: Attachment, handle: StepHandle, offset: number, options: FollowOptions): Promise<StepOutcome> {
    await this.#retrying(attachment, (t) => this.kill(t, handle), options.signal);
    let end: End | undefined;
    await this.#retrying(
      attachment,
      async (t) => {
        let stderr = "";
        await t.exec(followScript(handle.dir, handle.pgid, offset, 0), {
          signal: options.signal,
          onStdout: (chunk) => {
            offset += chunk.length;
            options.onData(chunk);
          },
          onStderr: (chunk) => (stderr += chunk.toString("latin1")),
        });
        end = parseEnd(stderr);
      },
      options.signal,
    );
    // The step may have ended on its own in the last instant: then its code stands.
    const finished = end as End | undefined;
    if (finished?.kind === "rc") return { exitCode: finished.code, timedOut: false, logBytes: offset };
    return { exitCode: null, timedOut: true, logBytes: offset };
  }

  async #retrying<T>(attachment: Attachment, op: (t: Transport) => Promise<T>, signal?: AbortSignal): Promise<T> {
    for (let failures = 1; ; failures++) {
      try {
        return await op(attachment.transport);
      } catch (e) {
        if (!isRetryableTransportError(e) || failures > this.#maxReattach) throw e;
        attachment.replace();
        await sleep(this.#reattachDelayMs * failures, signal);
      }
    }
  }
}

type End = { kind: "rc"; code: number } | { kind: "gone" | "wait" | "nodir" };

function parseEnd(stderr: string): End | undefined {
  const m = /end:(?:rc:(-?\d+)|(gone|wait|nodir))\s*$/.exec(stderr);
  if (!m) return undefined;
  return m[1] !== undefined ? { kind: "rc", code: Number(m[1]) } : { kind: m[2] as "gone" | "wait" | "nodir" };
}

function checkPgid(pgid: number): void {
  // `kill -- -1` would signal every process the user owns.
  if (!Number.isInteger(pgid) || pgid <= 1) throw new BenchwrightError("internal", `Invalid process group id ${pgid}`);
}

function normalize(path: string): string[] | undefined {
  const segments = path.split("/").filter((s, i) => s !== "" || i === 0);
  if (segments.some((s) => s === "." || s === "..")) return undefined;
  return segments;
}

/** True for a path strictly below a `.benchwright` dir or below `root`. */
export function removable(dir: string, root?: string): boolean {
  const segments = normalize(dir);
  if (!segments) return false;
  const i = segments.indexOf(".benchwright");
  if (i >= 0 && i < segments.length - 1) return true;
  if (root === undefined) return false;
  const base = normalize(root);
  if (!base || base.length === 0 || (base.length === 1 && (base[0] === "" || base[0] === "~"))) return false;
  return segments.length > base.length && base.every((s, k) => segments[k] === s);
}

/**
 * The transport in use: `replace` drops it after a failure so that the next use asks
 * for a fresh one (for a pool handle, the same connection reopened).
 */
class Attachment {
  #current: Transport | undefined;
  constructor(
    readonly getTransport: () => Transport,
    readonly owned: boolean,
  ) {}

  get transport(): Transport {
    return (this.#current ??= this.getTransport());
  }

  replace(): void {
    if (this.owned) this.#current?.release();
    this.#current = undefined;
  }

  release(): void {
    if (this.owned) this.#current?.release();
    this.#current = undefined;
  }
}
