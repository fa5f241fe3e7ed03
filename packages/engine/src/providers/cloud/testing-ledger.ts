import { randomUUID } from "node:crypto";
import { parseProviderConfig } from "../../config/parse-provider-config.js";
import type { CloudConfig } from "../../config/provider-config-types.js";
import { BenchwrightError } from "../../errors.js";
import type { ResolvedConfig } from "../../config/resolved-config.js";
import type { ProviderContext, ResourceLedger } from "../provider.js";

/** The cloud configuration of these sections, read as a session reads it. */
export function cloudConfig(sections: ResolvedConfig): CloudConfig {
  const config = parseProviderConfig(sections);
  if (config.class !== "cloud") throw new Error(`a ${config.class} configuration`);
  return config;
}

/** What the parser refuses these sections for, as the problem document lists it; [] when it takes them. */
export function configProblems(sections: ResolvedConfig): Array<{ path: string; message: string }> {
  try {
    parseProviderConfig(sections);
    return [];
  } catch (e) {
    if (!(e instanceof BenchwrightError)) throw e;
    return e.extras.errors ?? [];
  }
}

export interface MemoryLedger extends ResourceLedger {
  entries: Array<{ kind: string; id: string; meta: Record<string, unknown>; destroyed: boolean }>;
}

/** The store's ledger, in memory: enough for provider tests. */
export function createMemoryLedger(): MemoryLedger {
  const entries: MemoryLedger["entries"] = [];
  return {
    entries,
    async record(kind, id, meta = {}) {
      const existing = entries.find((e) => e.kind === kind && e.id === id);
      if (existing) Object.assign(existing, { meta, destroyed: false });
      else entries.push({ kind, id, meta, destroyed: false });
    },
    async markDestroyed(kind, id) {
      const e = entries.find((x) => x.kind === kind && x.id === id);
      if (e) e.destroyed = true;
    },
    async live() {
      return entries.filter((e) => !e.destroyed).map(({ kind, id, meta }) => ({ kind, id, meta }));
    },
  };
}

export function testContext(
  sessionId: string,
  logs: string[],
  ledger: ResourceLedger = createMemoryLedger(),
): ProviderContext & { resources: ResourceLedger } {
  return { sessionId, resources: ledger, dataDir: "/tmp/benchwright-test", log: (line) => logs.push(line) };
}

/** A test's session id, ledger and log lines; `renew()`, from each suite's beforeEach, makes them anew. */
export class TestSession {
  sessionId = randomUUID();
  ledger = createMemoryLedger();
  logs: string[] = [];

  renew(): void {
    this.sessionId = randomUUID();
    this.ledger = createMemoryLedger();
    this.logs = [];
  }

  /** The provider context of this test's session. */
  context(): ProviderContext & { resources: ResourceLedger } {
    return testContext(this.sessionId, this.logs, this.ledger);
  }
}

/** Stands in for a machine's sshd where only "does SSH answer" matters: it sends a banner and hangs up. */
export async function startBannerServer(): Promise<{ host: string; port: number; stop(): Promise<void> }> {
  const { createServer } = await import("node:net");
  const server = createServer((socket) => {
    socket.on("error", () => undefined);
    socket.end("SSH-2.0-OpenSSH_9.2\r\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return { host: "127.0.0.1", port, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A port on 127.0.0.1 where nothing listens (bound, then released). */
export async function closedPort(): Promise<number> {
  const { createServer } = await import("node:net");
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Logs in to a machine for real with the key it was handed (no command: only authentication matters). */
export async function loginWorks(target: { host: string; port: number; username: string; privateKey?: string }): Promise<string> {
  const { Client } = await import("ssh2");
  return new Promise((resolve, reject) => {
    const conn = new Client();
    conn
      .on("ready", () => {
        conn.end();
        resolve("ok");
      })
      .on("error", reject)
      .connect({ host: target.host, port: target.port, username: target.username, privateKey: target.privateKey });
  });
}

/** The BenchwrightError `promise` fails with (anything else fails the test); its messages go into `said`. */
export async function failureOf(promise: Promise<unknown>, said: string[]): Promise<BenchwrightError> {
  const outcome = await promise.then(
    () => new Error("expected a failure"),
    (e: unknown) => e,
  );
  if (!(outcome instanceof BenchwrightError)) throw outcome;
  said.push(outcome.message, outcome.detail);
  return outcome;
}

/** Each secret, or long line of a key, that appears in what was said (none, when all is well). */
export function leaks(said: string[], secrets: Iterable<string>): string[] {
  // Named by position, so that a failing test does not print the secret it found.
  const found: string[] = [];
  [...secrets].forEach((secret, n) => {
    const lines = secret.split("\n").filter((p) => p.length >= 16 && !p.startsWith("-----"));
    if (said.some((line) => line.includes(secret))) found.push(`secret ${n}`);
    else if (lines.some((part) => said.some((line) => line.includes(part)))) found.push(`a line of secret ${n}`);
  });
  return found;
}
