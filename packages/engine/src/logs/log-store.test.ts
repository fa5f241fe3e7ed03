import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bytesOf, hashOf, randomSizes, writeAll, createTestSchema } from "@benchwright/testing";
import { testPgliteImage } from "@benchwright/testing/pglite-image";
import type { Db } from "../store/db.js";
import { openDb } from "../store/open-db.js";
import { migrate } from "../store/migrations.js";
import type { StepKey } from "../model/steps.js";
import { DbLogStore } from "./db-log-store.js";
import { FileLogStore } from "./file-log-store.js";
import { logFilePath, TAIL_CAPACITY, type LogStore } from "./log-store.js";

const MiB = 1024 * 1024;

// Every store keeps the same promises: what is written is read back byte for byte, in any
// range; the tail is at hand; a writer opened again goes on after what is stored.
const stores = [
  { name: "FileLogStore (embedded PGlite, files under the data dir)", kind: "file" as const, big: 50 * MiB },
  { name: "DbLogStore on PostgreSQL", kind: "postgres" as const, big: 50 * MiB },
  // The same SQL on the embedded database, for a single process that wants its logs in it.
  { name: "DbLogStore on PGlite", kind: "pglite" as const, big: 8 * MiB },
];

for (const s of stores) {
  describe(s.name, () => {
    let db: Db;
    let store: LogStore;
    let dataDir: string;
    let drop = async () => {};

    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), "bw-logs-"));
      if (s.kind === "postgres") {
        const schema = await createTestSchema();
        drop = schema.drop;
        db = await openDb({ databaseUrl: schema.url });
      } else {
        // The run's migrated image: an initdb and the migrations are not what this file tests.
        db = await openDb({ pgliteDir: "memory://", pgliteImage: testPgliteImage() });
      }
      await migrate(db);
      store = s.kind === "file" ? new FileLogStore(dataDir, db) : new DbLogStore(db);
    }, 30_000);

    afterAll(async () => {
      await db.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const newKey = (): StepKey => ({ execution_id: randomUUID(), step: "run", attempt: 1 });
    const open = (key: StepKey, options?: Parameters<LogStore["open"]>[2]) => store.open(key, logFilePath(dataDir, key), options);

    it(`reads back ${s.big / MiB} MiB written in chunks of random sizes, identical`, async () => {
      const key = newKey();
      const source = randomBytes(s.big);
      const progress: number[] = [];
      const writer = await open(key, { onProgress: (n) => progress.push(n) });
      await writeAll(writer, source, randomSizes(source.length, 1, 1.5 * MiB));
      expect(writer.bytes).toBe(source.length);
      await writer.close();
      expect(await store.size(key)).toBe(source.length);
      expect(await store.exists(key)).toBe(true);
      expect(await hashOf(store.read(key))).toBe(sha256(source));
      // Progress only grows, and its last word is the whole log.
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      expect(progress.at(-1)).toBe(source.length);
    }, 120_000);

    it("reads any range of a stored log, chunk edges included", async () => {
      const key = newKey();
      const source = randomBytes(3 * MiB + 12345);
      const writer = await open(key);
      await writeAll(writer, source, randomSizes(source.length, 1, 300_000));
      await writer.close();
      const chunk = 256 * 1024;
      const ranges: Array<[number, number | undefined]> = [
        [0, 1],
        [0, undefined],
        [1, 2],
        [chunk - 1, chunk + 1],
        [chunk, 2 * chunk],
        [chunk, chunk],
        [100_000, 2_000_000],
        [source.length - 1, undefined],
        [source.length - 10, source.length + 1000],
        [source.length, undefined],
        [source.length + 5, undefined],
        [5 * chunk + 17, 9 * chunk + 3],
      ];
      for (const [start, end] of ranges) {
        const got = await bytesOf(store.read(key, { start, end }));
        expect(got.equals(source.subarray(start, end)), `bytes ${start} to ${end}`).toBe(true);
      }
    });

    it("keeps the tail at hand, bounded to the parser's window", async () => {
      const key = newKey();
      // Text, so that characters are bytes; more of it than the tail holds.
      const source = Buffer.concat([Buffer.from(randomBytes(TAIL_CAPACITY * 0.75).toString("base64")), Buffer.from("the end\nBW_METRIC x 1 s\n")]);
      const writer = await open(key);
      await writeAll(writer, source, randomSizes(source.length, 1000, 200_000));
      expect(writer.tail(24)).toBe("the end\nBW_METRIC x 1 s\n");
      expect(writer.tail(100, source.length - 8)).toBe("C x 1 s\n");
      expect(writer.tail(100, source.length - 16)).toBe("BW_METRIC x 1 s\n");
      expect(writer.tail(100, source.length)).toBe("");
      expect(writer.tail(64 * MiB)).toBe(source.subarray(source.length - TAIL_CAPACITY).toString());
      await writer.close();
    });

    it("goes on after the stored bytes when opened again, each byte once, its tail included", async () => {
      const key = newKey();
      // The step's output on its host: the runner re-sends from whatever offset it is given.
      const host = Buffer.from(Array.from({ length: 60_000 }, (_, i) => `line ${i}\n`).join(""));
      const first = await open(key);
      const cut = 200_000;
      await writeAll(first, host.subarray(0, cut), randomSizes(cut, 1, 40_000));
      await first.flush();
      // The process that followed the step stops: what it had not stored is lost to it.
      first.write(host.subarray(cut, cut + 5000));
      await first.close(AbortSignal.abort()).catch(() => {});

      const second = await open(key);
      const from = second.bytes;
      expect(from).toBeGreaterThanOrEqual(cut);
      expect(second.tail(30)).toBe(host.subarray(from - 30, from).toString());
      await writeAll(second, host.subarray(from), randomSizes(host.length - from, 1, 40_000));
      await second.close();
      expect(await store.size(key)).toBe(host.length);
      expect((await bytesOf(store.read(key))).equals(host)).toBe(true);
    });

    it("drops what was written past an offset, and goes on from there", async () => {
      const key = newKey();
      const kept = randomBytes(700_000);
      const writer = await open(key);
      await writeAll(writer, kept, randomSizes(kept.length, 1, 100_000));
      await writer.flush();
      writer.write(randomBytes(600_000)); // a part that never launched
      await writer.flush();
      writer.write(randomBytes(1000)); // and some not stored yet
      await writer.truncate(kept.length - 123);
      expect(writer.bytes).toBe(kept.length - 123);
      const rest = randomBytes(300_000);
      await writeAll(writer, rest, randomSizes(rest.length, 1, 100_000));
      expect(writer.tail(10)).toBe(rest.subarray(-10).toString());
      await writer.close();
      expect((await bytesOf(store.read(key))).equals(Buffer.concat([kept.subarray(0, kept.length - 123), rest]))).toBe(true);
    });

    it("has no log for an attempt that never wrote one", async () => {
      const key = newKey();
      expect(await store.exists(key)).toBe(false);
      expect(await store.size(key)).toBe(0);
      expect((await bytesOf(store.read(key))).length).toBe(0);
      const writer = await open(key);
      expect(writer.bytes).toBe(0);
      expect(writer.tail(100)).toBe("");
      await writer.close();
      expect((await bytesOf(store.read(key, { start: 10 }))).length).toBe(0);
    });
  });
}

function sha256(data: Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}
