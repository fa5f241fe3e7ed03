import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestSchema, startSshd, type SshdHarness } from "@benchwright/testing";
import { Engine } from "./engine.js";
import { SecretBox } from "./secrets/secret-box.js";
import { engineStore } from "./test-access.js";

// Issue 27, point 6: a prepare racing a DELETE of its session. As where it was seen: a server
// that runs no steps and a worker, on PostgreSQL, an existing-vm session whose host is the
// private sshd. Each case orders the two requests with a hook on the store, at the point
// where the race was lost, so that the losing order happens every time.
describe("a prepare racing the DELETE of its session", () => {
  let sshd: SshdHarness;
  let schema: Awaited<ReturnType<typeof createTestSchema>>;
  let dataDir: string;
  let server: Engine;
  let worker: Engine;

  beforeAll(async () => {
    sshd = await startSshd();
    schema = await createTestSchema();
    dataDir = mkdtempSync(join(tmpdir(), "bw-race-"));
    mkdirSync(join(dataDir, "config", "benchmarks"), { recursive: true });
    const secrets = new SecretBox(randomBytes(32));
    const options = { dataDir, configDir: join(dataDir, "config"), databaseUrl: schema.url, secrets };
    server = await Engine.open({ ...options, work: false });
    worker = await Engine.open({ ...options, worker: { renewMs: 500 } });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await worker?.close();
    await schema?.drop();
    await sshd?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  const execution = async () => {
    const session = await server.createSession({
      config: {
        provider: { class: "existing-vm", name: "lab" },
        vms: { host: sshd.host, port: sshd.port, vm_user: sshd.username, ssh_private_key: sshd.privateKey },
      },
    } as Parameters<Engine["createSession"]>[0]);
    const created = await server.createExecution(session.id, { tool: "idle", workload: "idle0" });
    return { sessionId: session.id, id: created.id, workDir: join(homedir(), ".benchwright", created.id) };
  };

  /** Replaces one method of a store's repository for its next call only. */
  function once<T extends object, K extends keyof T>(repository: T, name: K, replacement: (original: T[K]) => T[K]) {
    const original = (repository[name] as (...a: unknown[]) => unknown).bind(repository) as T[K];
    (repository as Record<K, T[K]>)[name] = ((...args: unknown[]) => {
      (repository as Record<K, T[K]>)[name] = original;
      return (replacement(original) as (...a: unknown[]) => unknown)(...args);
    }) as T[K];
  }

  /** Starts the DELETE; resolves once it has stopped what it found and waits for the steps' owners (its first cleaning is behind it). */
  function deleteUntilItWaits(sessionId: string): { deleted: Promise<void>; waiting: Promise<void> } {
    let waiting!: () => void;
    const reached = new Promise<void>((resolve) => (waiting = resolve));
    once(engineStore(server).leases, "held", (original) => (ids) => {
      waiting();
      return original(ids);
    });
    return { deleted: server.deleteSession(sessionId), waiting: reached };
  }

  it("refuses the step when the DELETE ended between the prepare's look at the session and its begin", async () => {
    const { sessionId, id, workDir } = await execution();
    once(engineStore(server).steps, "begin", (original) => async (...args) => {
      await server.deleteSession(sessionId);
      return original(...args);
    });
    await expect(server.prepare(id)).rejects.toMatchObject({ code: "session_deleted" });
    expect((await server.getExecution(id)).steps).toEqual([]);
    expect(existsSync(workDir)).toBe(false);
    expect((await server.getSession(sessionId)).state).toBe("deleted");
  }, 60_000);

  it("does not launch a step begun before the DELETE whose launch comes after the DELETE cleaned the host", async () => {
    const { sessionId, id, workDir } = await execution();
    let deletion: Promise<void> | undefined;
    once(engineStore(worker).leases, "recordHandle", (original) => async (...args) => {
      const { deleted, waiting } = deleteUntilItWaits(sessionId);
      deletion = deleted;
      await waiting;
      return original(...args);
    });
    const prepared = server.prepare(id);
    await expect(prepared).rejects.toMatchObject({ code: "step_failed", detail: expect.stringContaining("the session was deleted") });
    await deletion;
    expect((await server.getExecution(id)).state).toBe("prepare_failed");
    expect(existsSync(workDir)).toBe(false);
  }, 60_000);

  it("ends failed, and leaves no work dir, a step launched before the DELETE that finishes after it began", async () => {
    const { sessionId, id, workDir } = await execution();
    let deletion: Promise<void> | undefined;
    once(engineStore(worker).leases, "recordHandle", (original) => async (...args) => {
      const recorded = await original(...args);
      const { deleted, waiting } = deleteUntilItWaits(sessionId);
      deletion = deleted;
      await waiting;
      return recorded;
    });
    await expect(server.prepare(id)).rejects.toMatchObject({
      code: "step_failed",
      detail: expect.stringContaining("the session was deleted"),
    });
    await deletion;
    expect((await server.getExecution(id)).state).toBe("prepare_failed");
    expect(existsSync(workDir)).toBe(false);
  }, 60_000);

  it("has the step's owner clean up what it launched after the whole DELETE, which ended the step without it", async () => {
    const { sessionId, id, workDir } = await execution();
    let deletion: Promise<void> | undefined;
    // The owner stalls (its renewals hang, its lease holds) from just before its launch until the DELETE is over.
    const renew = engineStore(worker).leases.renew;
    engineStore(worker).leases.renew = async (...args) => {
      await deletion;
      return renew.apply(engineStore(worker), args);
    };
    once(engineStore(worker).leases, "recordHandle", (original) => async (...args) => {
      const recorded = await original(...args);
      // The DELETE waits a bounded time for the step's owner, then ends the step itself.
      deletion = server.deleteSession(sessionId);
      await deletion;
      return recorded;
    });
    try {
      await expect(server.prepare(id)).rejects.toMatchObject({
        code: "step_failed",
        detail: expect.stringContaining("the session was deleted"),
      });
      await deletion;
    } finally {
      engineStore(worker).leases.renew = renew;
    }
    expect((await server.getSession(sessionId)).state).toBe("deleted");
    // The owner launched the step after all that, and removes it once it learns the step is not its own any more.
    const until = Date.now() + 15_000;
    while (existsSync(workDir) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(workDir)).toBe(false);
  }, 60_000);
});
