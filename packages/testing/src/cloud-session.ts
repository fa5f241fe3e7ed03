import { randomUUID } from "node:crypto";

// A cloud driver test's session, written against the engine's provider interfaces by their
// shape alone: this package does not depend on the engine (whose tests depend on it).

/**
 * The store's resource ledger in memory, enough for provider tests: the engine's ResourceLedger
 * (record, markDestroyed, live), and the entries it holds for a test to look at.
 */
export interface MemoryLedger {
  entries: Array<{ kind: string; id: string; meta: Record<string, unknown>; destroyed: boolean }>;
  record(kind: string, id: string, meta?: Record<string, unknown>): Promise<void>;
  markDestroyed(kind: string, id: string): Promise<void>;
  live(): Promise<Array<{ kind: string; id: string; meta: Record<string, unknown> }>>;
}

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

/** What a provider is handed for a session: the required part of the engine's ProviderContext. */
export function testContext(sessionId: string, logs: string[], ledger: MemoryLedger = createMemoryLedger()) {
  return { sessionId, resources: ledger, dataDir: "/tmp/benchwright-test", log: (line: string): void => void logs.push(line) };
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
  context(): ReturnType<typeof testContext> {
    return testContext(this.sessionId, this.logs, this.ledger);
  }
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
