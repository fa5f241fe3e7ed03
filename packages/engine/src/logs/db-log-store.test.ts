import { createHash, randomBytes, randomUUID } from "node:crypto";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bytesOf, hashOf, randomSizes, writeAll, createTestSchema, startTcpProxy } from "@benchwright/testing";
import type { Db } from "../store/db.js";
import { openDb } from "../store/open-db.js";
import { migrate } from "../store/migrations.js";
import type { StepKey } from "../model/steps.js";
import { DbLogStore } from "./db-log-store.js";

const MiB = 1024 * 1024;

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Live memory after a full collection: the JS heap and the buffers outside it. */
function liveBytes(): number {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

// What only the database store has to get right: bounded memory, a slow or absent
// database, and a second writer of the same attempt.
describe("DbLogStore on PostgreSQL", () => {
  let db: Db;
  let url: string;
  let drop = async () => {};
  const key = (): StepKey => ({ execution_id: randomUUID(), step: "run", attempt: 1 });

  beforeAll(async () => {
    const schema = await createTestSchema();
    drop = schema.drop;
    url = schema.url;
    db = await openDb({ databaseUrl: url });
    await migrate(db);
  }, 30_000);

  afterAll(async () => {
    await db.close();
    await drop();
  });

  it("stores 200 MiB with bounded memory, and reads it back identical", async () => {
    const store = new DbLogStore(db);
    const k = key();
    const total = 200 * MiB;
    const pattern = randomBytes(MiB + 4099);
    const hash = createHash("sha256");
    const writer = await store.open(k, "unused");
    const before = liveBytes();
    let peak = 0;
    let written = 0;
    let nextSample = 0;
    for (const size of randomSizes(total, 1024, 256 * 1024)) {
      // A fresh buffer per chunk, as the network gives them.
      const chunk = Buffer.allocUnsafe(size);
      for (let i = 0; i < size; ) i += pattern.copy(chunk, i, (written + i) % pattern.length);
      hash.update(chunk);
      writer.write(chunk);
      written += size;
      if (!writer.writable) await writer.drain();
      if (written >= nextSample) {
        peak = Math.max(peak, liveBytes() - before);
        nextSample += 8 * MiB;
      }
      await new Promise((r) => setImmediate(r));
    }
    await writer.close();
    peak = Math.max(peak, liveBytes() - before);
    expect(peak).toBeLessThan(64 * MiB);
    expect(await store.size(k)).toBe(total);
    expect(await hashOf(store.read(k))).toBe(hash.digest("hex"));
  }, 300_000);

  it("holds the producer back while the database does not take the bytes, and loses none", async () => {
    const store = new DbLogStore(db, { highWaterMark: 2 * MiB });
    const k = key();
    const writer = await store.open(k, "unused");
    const source = randomBytes(6 * MiB);
    // Another session holds the table: every insert waits on it.
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
      let at = 0;
      while (writer.writable) {
        writer.write(source.subarray(at, at + 64 * 1024));
        at += 64 * 1024;
        await new Promise((r) => setImmediate(r));
      }
      // The mark is reached with the bytes still unstored: memory holds about the mark, no more.
      expect(at).toBeGreaterThanOrEqual(2 * MiB);
      expect(at).toBeLessThan(3 * MiB);
      let drained = false;
      const draining = writer.drain().then(() => (drained = true));
      await new Promise((r) => setTimeout(r, 300));
      expect(drained).toBe(false);
      expect(await store.size(k)).toBe(0);
      release();
      await holding;
      await draining;
      await writeAll(writer, source.subarray(at), randomSizes(source.length - at, 1, 500_000));
      await writer.close();
    } finally {
      release();
      await holding.catch(() => {});
      await blocker.close();
    }
    expect((await bytesOf(store.read(k))).equals(source)).toBe(true);
  });

  it("keeps the bytes through a database outage and stores each once when it is back", async () => {
    const target = new URL(url.replace(/^postgres:/, "http:"));
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = url.replace(`${target.hostname}:${target.port || 5432}`, `127.0.0.1:${proxy.port}`);
    const outageDb = await openDb({ databaseUrl: viaProxy });
    try {
      const errors: unknown[] = [];
      const store = new DbLogStore(outageDb, { highWaterMark: MiB, flushIntervalMs: 20 });
      const k = key();
      const writer = await store.open(k, "unused", { onError: (e) => errors.push(e) });
      const source = randomBytes(3 * MiB);
      await writeAll(writer, source.subarray(0, 300_000), randomSizes(300_000, 1, 50_000));
      await writer.flush();
      proxy.cut();
      let at = 300_000;
      while (writer.writable) {
        writer.write(source.subarray(at, at + 100_000));
        at += 100_000;
      }
      const draining = writer.drain();
      // Tried, failed, kept: said to the hook, never thrown at the producer.
      for (let i = 0; i < 100 && errors.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(errors.length).toBeGreaterThan(0);
      expect(await new DbLogStore(db).size(k)).toBe(300_000);
      proxy.restore();
      await draining;
      await writeAll(writer, source.subarray(at), randomSizes(source.length - at, 1, 500_000));
      await writer.close();
      expect((await bytesOf(new DbLogStore(db).read(k))).equals(source)).toBe(true);
      const [{ stored }] = await db.query<{ stored: string }>(
        "SELECT sum(octet_length(data)) AS stored FROM log_chunks WHERE execution_id = $1 AND step = $2 AND attempt = $3",
        [k.execution_id, k.step, k.attempt],
      );
      expect(Number(stored)).toBe(source.length);
    } finally {
      await outageDb.close();
      await proxy.close();
    }
  }, 60_000);

  it("reads each byte once when a stale writer and its successor cut the same bytes differently", async () => {
    const host = randomBytes(2 * MiB + 777);
    // The stale writer stopped after 300 000 bytes: its last chunk is short, at an offset where its successor stores a full one.
    const staleEnd = 300_000;
    for (const order of ["stale first", "successor first"] as const) {
      const k = key();
      const stale = await new DbLogStore(db).open(k, "unused");
      const successor = await new DbLogStore(db).open(k, "unused");
      const part = (w: typeof stale) => (w === stale ? host.subarray(0, staleEnd) : host);
      const [a, b] = order === "stale first" ? [stale, successor] : [successor, stale];
      // Both followed the same host log from 0.
      await writeAll(a, part(a), randomSizes(part(a).length, 1, 70_000));
      await a.close();
      await writeAll(b, part(b), randomSizes(part(b).length, 1, 70_000));
      await b.close();
      const store = new DbLogStore(db);
      expect(await store.size(k), order).toBe(host.length);
      expect((await bytesOf(store.read(k))).equals(host), order).toBe(true);
      expect((await bytesOf(store.read(k, { start: 99_999, end: 300_001 }))).equals(host.subarray(99_999, 300_001)), order).toBe(true);
    }
  });

  it("records the stored size in the attempt's row", async () => {
    const store = new DbLogStore(db);
    const sessionId = randomUUID();
    const execId = randomUUID();
    await db.query(
      "INSERT INTO sessions (id, provider_name, service_type, provider_class, config_sealed, state, created) VALUES ($1, 'l', 'd', 'local', 'x', 'active', now())",
      [sessionId],
    );
    await db.query("INSERT INTO executions (id, session_id, tool_id, workload_id, test, state, created) VALUES ($1, $2, 't', 'w', '{}', 'running', now())", [
      execId,
      sessionId,
    ]);
    await db.query("INSERT INTO steps (execution_id, step, attempt, state, started, log_file) VALUES ($1, 'run', 1, 'running', now(), 'unused')", [execId]);
    const k: StepKey = { execution_id: execId, step: "run", attempt: 1 };
    expect(await store.exists(k)).toBe(true);
    const writer = await store.open(k, "unused");
    writer.write(randomBytes(1000));
    await writer.close();
    const [row] = await db.query<{ log_bytes: string }>("SELECT log_bytes FROM steps WHERE execution_id = $1", [execId]);
    expect(Number(row.log_bytes)).toBe(1000);
  });
});
