import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type Db } from "../store/db.js";
import { migrate } from "../store/migrations.js";
import { FileLogStore } from "./file-log-store.js";
import { logFilePath, type LogWriter } from "./log-store.js";
import { maskingSecret } from "./secret-masking-writer.js";

const SECRET = "5e3c0ffee5e3c0ffee1234567890abcd";
const STARS = "*".repeat(SECRET.length);

describe("a step's log that masks the step's secret", () => {
  let db: Db;
  let store: FileLogStore;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "bw-masking-"));
    db = await openDb({ pgliteDir: "memory://" });
    await migrate(db);
    store = new FileLogStore(dataDir, db);
  }, 30_000);

  afterAll(async () => {
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A fresh attempt's log, and how to read back what it stored. */
  async function open() {
    const key = { execution_id: randomUUID(), step: "run" as const, attempt: 1 };
    const file = logFilePath(dataDir, key);
    const reopen = async () => maskingSecret(await store.open(key, file), SECRET);
    const stored = async () => {
      const chunks: Buffer[] = [];
      for await (const c of store.read(key, undefined, file)) chunks.push(c as Buffer);
      return Buffer.concat(chunks).toString("utf8");
    };
    return { log: await reopen(), reopen, stored };
  }

  /** Writes `text` cut at `cuts`, checking that `bytes` counts every byte given so far. */
  function writeCut(log: LogWriter, text: string, cuts: number[]) {
    const before = log.bytes;
    let from = 0;
    for (const to of [...cuts, text.length]) {
      log.write(Buffer.from(text.slice(from, to)));
      from = to;
      expect(log.bytes).toBe(before + Buffer.byteLength(text.slice(0, to)));
    }
  }

  it("stores stars of the secret's length wherever the secret is cut across chunks, and keeps the rest byte for byte", async () => {
    const text = `password=${SECRET}\n${SECRET}${SECRET} and a${SECRET.slice(0, 5)}x again ${SECRET}\n`;
    const masked = `password=${STARS}\n${STARS}${STARS} and a${SECRET.slice(0, 5)}x again ${STARS}\n`;
    for (let cut = 0; cut <= text.length; cut++) {
      const { log, stored } = await open();
      writeCut(log, text, [cut, Math.min(text.length, cut + 7)]);
      await log.flush();
      await log.close();
      expect(await stored(), `cut at ${cut}`).toBe(masked);
    }
    // One byte at a time.
    const { log, stored } = await open();
    writeCut(log, text, Array.from({ length: text.length }, (_, i) => i));
    expect(log.tail(1024)).toBe(masked);
    await log.close();
    expect(await stored()).toBe(masked);
  }, 60_000);

  it("leaves the caller's chunk as it was", async () => {
    const { log } = await open();
    const chunk = Buffer.from(`x ${SECRET} y`);
    log.write(chunk);
    expect(chunk.toString()).toBe(`x ${SECRET} y`);
    await log.close();
  });

  it("writes what it held back once the output has ended: a long start of the secret as stars, a short one as it is", async () => {
    for (const [end, expected] of [
      [SECRET.slice(0, 20), "*".repeat(20)],
      [SECRET.slice(0, 3), SECRET.slice(0, 3)],
    ]) {
      const { log, stored } = await open();
      log.write(Buffer.from(`done ${end}`));
      expect(log.tail(100)).toBe(`done ${expected}`);
      await log.close();
      expect(await stored()).toBe(`done ${expected}`);
    }
  });

  it("does not store what it held back when handed back: the next holder reads it again from the host and masks it whole", async () => {
    const text = `before ${SECRET} after\n`;
    const cut = text.indexOf(SECRET) + 12;
    const first = await open();
    first.log.write(Buffer.from(text.slice(0, cut)));
    await first.log.close();
    // The next holder follows on from the stored size, as the runner does after a takeover.
    const next = await first.reopen();
    expect(next.bytes).toBe(text.indexOf(SECRET));
    next.write(Buffer.from(text.slice(next.bytes)));
    next.tail(1);
    await next.close();
    expect(await first.stored()).toBe(`before ${STARS} after\n`);
  });

  it("drops held bytes a truncation cuts, and only those", async () => {
    const { log, stored } = await open();
    log.write(Buffer.from(`abc ${SECRET.slice(0, 10)}`));
    await log.truncate(8);
    expect(log.bytes).toBe(8);
    log.write(Buffer.from(`${SECRET.slice(4)}!`));
    log.tail(1);
    await log.close();
    // The 4 held bytes kept and the rest of the secret after them: the whole secret, masked.
    expect(await stored()).toBe(`abc ${STARS}!`);
  });

  it("is the log itself when the step has no secret", async () => {
    const key = { execution_id: randomUUID(), step: "run" as const, attempt: 1 };
    const inner = await store.open(key, logFilePath(dataDir, key));
    expect(maskingSecret(inner, undefined)).toBe(inner);
    await inner.close();
  });
});
