import { spawn, type ChildProcess } from "node:child_process";
import type { ExecOptions, ExecResult } from "./transport.js";
import { stepEnvironment } from "./step-environment.js";
import { TransportError } from "./transport-error.js";

/**
 * The helper's program: it runs each command it is sent under `bash -c`, with the helper's
 * own environment (the step environment it was started with), and sends back its output
 * and its end, in order. It stops reading a command's output while more than
 * HIGH_WATER messages wait to be written to the server, so that a fast command does not grow
 * its memory, and exits when the server goes.
 */
const HELPER = `
const { spawn } = require("node:child_process");
const HIGH_WATER = 64;
const running = new Map();
const paused = new Set();
let pending = 0;
function send(message, stream) {
  pending++;
  process.send(message, () => {
    pending--;
    if (pending < HIGH_WATER / 2 && paused.size) { for (const s of paused) s.resume(); paused.clear(); }
  });
  if (stream && pending >= HIGH_WATER) { stream.pause(); paused.add(stream); }
}
process.on("message", (m) => {
  if (m.kill !== undefined) { running.get(m.kill)?.kill(); return; }
  let ended = false;
  const child = spawn("bash", ["-c", m.script], { stdio: ["ignore", "pipe", "pipe"] });
  running.set(m.id, child);
  child.stdout.on("data", (chunk) => send({ id: m.id, out: chunk }, child.stdout));
  child.stderr.on("data", (chunk) => send({ id: m.id, err: chunk }, child.stderr));
  const end = (message) => { if (ended) return; ended = true; running.delete(m.id); send(message); };
  child.on("error", (e) => end({ id: m.id, error: e.message }));
  child.on("close", (code, signal) => end({ id: m.id, code, signal }));
});
process.on("disconnect", () => process.exit(0));
`;

type Message = { id: number; out?: Uint8Array; err?: Uint8Array; error?: string; code?: number | null; signal?: string | null };

interface Call {
  options: ExecOptions;
  out: Buffer[];
  err: Buffer[];
  resolve(result: ExecResult): void;
  reject(error: unknown): void;
}

/**
 * Starts the local provider's commands from a small helper process. Node 20 spawns with
 * fork(), whose cost grows with the parent's resident memory and which blocks the event loop
 * while it lasts: 1.8 ms from a 50 MiB process, 7.6 ms from the server at its idle 178 MiB,
 * 20 ms at 500 MiB, for every step on `local`. The helper stays small, and its forks block
 * nothing of the server's. Neither the helper nor its commands see the server's environment:
 * they get stepEnvironment's part of it. Started at the first command and let go after `idleMs` without one;
 * a helper that dies fails the commands it ran with a retryable error (the runner re-attaches
 * to their steps) and is started again.
 */
export class LocalSpawner {
  #helper: ChildProcess | undefined;
  #next = 0;
  readonly #calls = new Map<number, Call>();
  #idle: NodeJS.Timeout | undefined;

  /** @param idleMs how long the helper is kept without a command (its memory is given back after). */
  constructor(private readonly idleMs = 30_000) {}

  /** The helper's process id while it runs. */
  get helperPid(): number | undefined {
    return this.#helper?.pid;
  }

  exec(script: string, options: ExecOptions = {}): Promise<ExecResult> {
    return new Promise((resolve, reject) => {
      if (options.signal?.aborted) return reject(options.signal.reason);
      clearTimeout(this.#idle);
      const helper = this.#started();
      const id = this.#next++;
      const onAbort = () => {
        if (!this.#settle(id)) return;
        helper.send({ kill: id }, () => {});
        reject(options.signal!.reason);
      };
      const done = () => options.signal?.removeEventListener("abort", onAbort);
      const call: Call = { options, out: [], err: [], resolve: (r) => (done(), resolve(r)), reject: (e) => (done(), reject(e)) };
      this.#calls.set(id, call);
      helper.channel?.ref();
      options.signal?.addEventListener("abort", onAbort, { once: true });
      helper.send({ id, script }, (e: Error | null) => {
        if (e && this.#settle(id)) call.reject(new TransportError(`cannot start a local command: ${e.message}`, { retryable: true, cause: e }));
      });
    });
  }

  /** Forgets a call; false when it was settled already. Lets the helper go once nothing waits on it. */
  #settle(id: number): boolean {
    if (!this.#calls.delete(id)) return false;
    if (this.#calls.size === 0 && this.#helper) {
      this.#helper.channel?.unref();
      clearTimeout(this.#idle);
      // Let go here, not by the helper's own decision: no command can be sent to a helper on its way out.
      this.#idle = setTimeout(() => this.#letGo(), this.idleMs).unref();
    }
    return true;
  }

  #letGo(): void {
    const helper = this.#helper;
    if (!helper || this.#calls.size > 0) return;
    this.#helper = undefined;
    if (helper.connected) helper.disconnect();
  }

  #started(): ChildProcess {
    if (this.#helper) return this.#helper;
    // Also without the server's NODE_OPTIONS: an --inspect or --import there is not the helper's.
    const env = stepEnvironment(process.env);
    const helper = spawn(process.execPath, ["-e", HELPER], {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      serialization: "advanced",
      env,
    });
    this.#helper = helper;
    helper.unref();
    helper.on("message", (m: Message) => this.#receive(m));
    const gone = (why: string) => {
      if (this.#helper !== helper) return;
      this.#helper = undefined;
      for (const [id, call] of [...this.#calls]) {
        this.#settle(id);
        call.reject(new TransportError(`the local command helper ${why}`, { retryable: true }));
      }
    };
    helper.on("exit", (code, signal) => gone(`exited (${signal ?? code})`));
    helper.on("error", (e) => gone(`failed: ${e.message}`));
    return helper;
  }

  #receive(m: Message): void {
    const call = this.#calls.get(m.id);
    if (!call) return;
    if (m.out) return void (call.options.onStdout ? call.options.onStdout(asBuffer(m.out)) : call.out.push(asBuffer(m.out)));
    if (m.err) return void (call.options.onStderr ? call.options.onStderr(asBuffer(m.err)) : call.err.push(asBuffer(m.err)));
    this.#settle(m.id);
    if (m.error !== undefined) {
      call.reject(new Error(m.error));
      return;
    }
    call.resolve({
      code: m.code ?? null,
      signal: m.signal ?? null,
      stdout: Buffer.concat(call.out).toString("utf8"),
      stderr: Buffer.concat(call.err).toString("utf8"),
    });
  }
}

/** The serializer gives back a Buffer's bytes, as a Buffer or a plain Uint8Array. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
