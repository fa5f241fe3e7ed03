import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { specPath } from "./index.js";

export interface PrismOptions {
  /** `mock` serves the contract's examples; `proxy` forwards to `upstream` and checks every exchange. */
  mode: "mock" | "proxy";
  /** The real server's root URL, for `proxy`. */
  upstream?: string;
  /** With `proxy`: answer any contract violation of request or response with an error. */
  errors?: boolean;
  port?: number;
  startTimeoutMs?: number;
}

export interface RunningPrism {
  /** Root URL; the API is under `/api/v1`, as on the real server. */
  url: string;
  /** Everything Prism printed so far (its violation reports, for failing tests). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts Prism on the bundled contract as a child process. Prism serves every path at its
 * root and ignores a relative `servers` entry, so it is handed a copy of the contract whose
 * paths carry the `/api/v1` prefix: clients then use the very URLs of the real server.
 */
export async function startPrism(options: PrismOptions): Promise<RunningPrism> {
  const dir = mkdtempSync(join(tmpdir(), "bw-prism-"));
  const port = options.port ?? (await freePort());
  const args =
    options.mode === "mock"
      ? ["mock", prefixedSpec(dir)]
      : ["proxy", prefixedSpec(dir), options.upstream!.replace(/\/$/, ""), ...(options.errors ? ["--errors"] : [])];
  const child = spawn(process.execPath, [prismBin(), ...args, "-p", String(port), "-h", "127.0.0.1"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  try {
    await waitForListening(child, () => output, options.startTimeoutMs ?? 90_000);
  } catch (e) {
    child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function prismBin(): string {
  const require = createRequire(import.meta.url);
  const pkgPath = require.resolve("@stoplight/prism-cli/package.json");
  const bin = (JSON.parse(readFileSync(pkgPath, "utf8")) as { bin: Record<string, string> }).bin.prism;
  return resolve(dirname(pkgPath), bin);
}

function prefixedSpec(dir: string): string {
  const spec = JSON.parse(readFileSync(specPath, "utf8")) as { paths: Record<string, unknown>; servers?: unknown };
  spec.paths = Object.fromEntries(Object.entries(spec.paths).map(([path, item]) => [`/api/v1${path}`, item]));
  delete spec.servers;
  const target = join(dir, "openapi.json");
  writeFileSync(target, JSON.stringify(spec));
  return target;
}

function waitForListening(child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prism did not start in ${timeoutMs} ms:\n${output()}`)), timeoutMs);
    const poll = setInterval(() => {
      if (output().includes("Prism is listening")) {
        clearTimeout(timer);
        clearInterval(poll);
        resolve();
      }
    }, 50);
    child.once("exit", (code) => {
      clearTimeout(timer);
      clearInterval(poll);
      reject(new Error(`prism exited with ${code} before listening:\n${output()}`));
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}
