import { spawn, type ChildProcess } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The built command, run as a user's shell would run it. */
export const BIN = resolve(dirname(fileURLToPath(import.meta.url)), "../../dist/bin.js");

export interface CliRun {
  child: ChildProcess;
  /** Everything written so far. */
  readonly stdout: string;
  readonly stderr: string;
  /** Resolves once `text` has been written on stderr (the progress lines go there). */
  waitForStderr(text: string | RegExp, timeoutMs?: number): Promise<void>;
  exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

export function startCli(args: string[], env: Record<string, string | undefined> = {}): CliRun {
  // The developer's own server settings must not leak into what the test says.
  const merged: Record<string, string | undefined> = { ...process.env, BENCHWRIGHT_URL: undefined, BENCHWRIGHT_API_TOKEN: undefined, ...env };
  const child = spawn(process.execPath, [BIN, ...args], {
    env: Object.fromEntries(Object.entries(merged).filter((e): e is [string, string] => e[1] !== undefined)),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const watchers: Array<() => void> = [];
  child.stdout!.setEncoding("utf8").on("data", (t: string) => (stdout += t));
  child.stderr!.setEncoding("utf8").on("data", (t: string) => {
    stderr += t;
    for (const w of watchers) w();
  });
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((r) => child.once("close", (code) => r({ code, stdout, stderr })));
  return {
    child,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    exited,
    waitForStderr(text, timeoutMs = 30_000) {
      const seen = () => (typeof text === "string" ? stderr.includes(text) : text.test(stderr));
      return new Promise<void>((resolveSeen, reject) => {
        if (seen()) return resolveSeen();
        const timer = setTimeout(() => reject(new Error(`never wrote ${text} on stderr; it wrote:\n${stderr}`)), timeoutMs);
        watchers.push(() => {
          if (seen()) {
            clearTimeout(timer);
            resolveSeen();
          }
        });
        void exited.then(() => {
          clearTimeout(timer);
          if (!seen()) reject(new Error(`exited before writing ${text} on stderr; it wrote:\n${stderr}\nand on stdout:\n${stdout}`));
        });
      });
    },
  };
}

/** Runs the command to its end. */
export function runCli(args: string[], env: Record<string, string | undefined> = {}) {
  return startCli(args, env).exited;
}
