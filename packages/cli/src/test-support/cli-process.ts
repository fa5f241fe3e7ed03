import { spawn, type ChildProcess } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The built command, run as a user's shell would run it. */
const BIN = resolve(dirname(fileURLToPath(import.meta.url)), "../../dist/bin.js");

export interface CliRun {
  child: ChildProcess;
  /** Everything written so far. */
  readonly stdout: string;
  readonly stderr: string;
  /** Resolves once `text` has been written on stderr (the progress lines go there). */
  waitForStderr(text: string | RegExp, timeoutMs?: number): Promise<void>;
  exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** The environment a command runs with: the developer's own server settings must not leak into what the test says. */
function envOf(env: Record<string, string | undefined>): Record<string, string> {
  const merged: Record<string, string | undefined> = {
    ...process.env,
    BENCHWRIGHT_URL: undefined,
    BENCHWRIGHT_API_TOKEN: undefined,
    ...env,
  };
  return Object.fromEntries(Object.entries(merged).filter((e): e is [string, string] => e[1] !== undefined));
}

export function startCli(args: string[], env: Record<string, string | undefined> = {}): CliRun {
  return watched(spawn(process.execPath, [BIN, ...args], { env: envOf(env), stdio: ["ignore", "pipe", "pipe"] }));
}

const shellQuote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

/**
 * The command in a pseudo-terminal of 100 columns, as a person runs it: `script` gives it one,
 * and what is written on the returned child's stdin is typed on its keyboard (`\x03` is
 * Ctrl-C, turned into SIGINT by the terminal only if the command leaves it able to). The
 * terminal's output (stdout and stderr both) arrives as stderr; the exit code is the command's.
 */
export function startCliInTerminal(args: string[], env: Record<string, string | undefined> = {}): CliRun {
  const command = ["stty cols 100 rows 30 &&", "exec", ...[process.execPath, BIN, ...args].map(shellQuote)].join(" ");
  const child = spawn("script", ["-qfec", command, "/dev/null"], {
    env: envOf({ TERM: "xterm-256color", ...env }),
    stdio: ["pipe", "pipe", "pipe"],
  });
  // The terminal's output is the command's stderr and stdout at once: read as the progress lines.
  const run = watched(child, child.stdout!);
  return run;
}

function watched(child: ChildProcess, progressStream = child.stderr!): CliRun {
  let stdout = "";
  let stderr = "";
  const watchers: Array<() => void> = [];
  if (progressStream !== child.stdout) child.stdout!.setEncoding("utf8").on("data", (t: string) => (stdout += t));
  progressStream.setEncoding("utf8").on("data", (t: string) => {
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
