import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bytesOf, createTestSchema, startSshd, sshTargetOf, type SshdHarness } from "@benchwright/testing";
import { StepRunner } from "../runner/step-runner.js";
import type { Db } from "../store/db.js";
import { openDb } from "../store/open-db.js";
import { migrate } from "../store/migrations.js";
import { InMemoryHostKeyStore } from "../transport/host-key.js";
import { LocalShell } from "../transport/local-shell.js";
import { SshPool } from "../transport/ssh-pool.js";
import type { Transport } from "../transport/transport.js";
import { DbLogStore } from "./db-log-store.js";
import { followIntoLog } from "./follow-into-log.js";

const MiB = 1024 * 1024;

// A real step (on the local shell, and over SSH), followed by the real runner into a log whose database does
// not take bytes for a while: the follow stops, and goes on from where the log ends.
describe("following a step into a log that pushes back", () => {
  const runner = new StepRunner();
  const root = `~/.benchwright/test-${randomUUID()}`;
  let sshd: SshdHarness;
  let pool: SshPool;
  let db: Db;
  let url: string;
  let drop = async () => {};
  const transports: Record<string, () => Transport> = {
    "the local shell": () => new LocalShell(),
    SSH: () => pool.get(sshTargetOf(sshd), "test/m1"),
  };

  beforeAll(async () => {
    sshd = await startSshd();
    pool = new SshPool({ hostKeys: new InMemoryHostKeyStore() });
    const schema = await createTestSchema();
    drop = schema.drop;
    url = schema.url;
    db = await openDb({ databaseUrl: url });
    await migrate(db);
  }, 30_000);
  afterAll(async () => {
    for (const transport of Object.values(transports)) await runner.remove(transport(), root).catch(() => {});
    await pool?.close();
    await sshd?.stop();
    await db?.close();
    await drop();
  }, 30_000);

  it.each(Object.keys(transports))(
    "over %s, holds about the high-water mark while the database is held, and stores every byte once",
    async (via) => {
      const t = transports[via]();
      const lines = 1_500_000;
      const expected = Array.from({ length: lines }, (_, i) => `${i + 1}\n`).join("");
      const dir = `${root}/flood-${via.length}`;
      const key = { execution_id: randomUUID(), step: "run" as const, attempt: 1 };
      const writer = await new DbLogStore(db, { highWaterMark: MiB }).open(key, "unused");

      const blocker = await openDb({ databaseUrl: url });
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let locked!: () => void;
      const lockTaken = new Promise<void>((r) => (locked = r));
      const holding = blocker.transaction(async (tx) => {
        await tx.query("LOCK TABLE log_chunks IN EXCLUSIVE MODE");
        locked();
        await held;
      });
      await lockTaken;
      try {
        const handle = await runner.start(t, { dir, script: `seq 1 ${lines}`, timeoutMs: 120_000 });
        let follows = 0;
        const outcome = followIntoLog(writer, 0, (fromOffset, onData, signal) => {
          follows++;
          return runner.follow(t, handle, { fromOffset, onData, signal, deadline: Date.now() + 120_000 });
        });
        // The step writes its whole output on its host while the log takes none of it.
        while ((await t.exec(`test -e "$HOME"/${dir.slice(2)}/step.rc`)).code !== 0) await new Promise((r) => setTimeout(r, 50));
        // The follow reaches the mark at its own pace (seconds under load); then it must stop there.
        const limit = Date.now() + 60_000;
        while (writer.writable && Date.now() < limit) await new Promise((r) => setTimeout(r, 20));
        expect(writer.writable).toBe(false);
        await new Promise((r) => setTimeout(r, 300));
        expect(writer.writable).toBe(false);
        expect(writer.bytes).toBeGreaterThanOrEqual(MiB);
        expect(writer.bytes).toBeLessThan(2 * MiB);
        release();
        await holding;
        expect(await outcome).toMatchObject({ exitCode: 0, logBytes: expected.length });
        expect(follows).toBeGreaterThan(1);
        await writer.close();
      } finally {
        release();
        await holding.catch(() => {});
        await blocker.close();
        t.release();
      }
      expect((await bytesOf(new DbLogStore(db).read(key))).toString()).toBe(expected);
    },
    120_000,
  );
});
