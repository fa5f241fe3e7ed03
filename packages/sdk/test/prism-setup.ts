// Starts `prism mock` on the bundled contract for the tests, and stops it afterwards.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The mock server's root; the SDK appends /api/v1 as it does for the real server. */
    prismUrl: string;
  }
}

const PRISM = fileURLToPath(new URL("../../../node_modules/.bin/prism", import.meta.url));
const START_TIMEOUT_MS = 30_000;

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

// Prism ignores relative `servers` entries and serves every path at its root, so the
// paths are given the /api/v1 prefix here: the SDK is then tested with the URLs it
// really sends.
function prefixedSpec(dir: string): string {
  const specPath = createRequire(import.meta.url).resolve("@benchwright/contract/openapi.json");
  const spec = JSON.parse(readFileSync(specPath, "utf8")) as { paths: Record<string, unknown>; servers?: unknown };
  spec.paths = Object.fromEntries(Object.entries(spec.paths).map(([path, item]) => [`/api/v1${path}`, item]));
  delete spec.servers;
  const target = join(dir, "openapi.json");
  writeFileSync(target, JSON.stringify(spec));
  return target;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), "bw-sdk-prism-"));
  const port = await freePort();
  const child = spawn(PRISM, ["mock", "-p", String(port), "-h", "127.0.0.1", prefixedSpec(dir)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prism did not start in ${START_TIMEOUT_MS} ms:\n${output}`)), START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Prism is listening")) {
        clearTimeout(timer);
        child.stdout.off("data", onData);
        child.stderr.off("data", onData);
        resolve();
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`prism exited with ${code} before listening:\n${output}`));
    });
    child.once("error", reject);
  }).catch(async (err: unknown) => {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  });
  // Prism logs every request; an unread pipe would eventually block it.
  child.stdout.resume();
  child.stderr.resume();

  project.provide("prismUrl", `http://127.0.0.1:${port}`);

  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
}
