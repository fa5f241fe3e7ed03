import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../store/db.js";
import { openDb } from "../store/open-db.js";
import { migrate } from "../store/migrations.js";
import { FileLogStore } from "./file-log-store.js";
import { logFilePath, type LogWriter } from "./log-store.js";
import { Scrubber } from "../secrets/scrub.js";
import { maskingSecrets } from "./secret-masking-writer.js";
import { testPgliteImage } from "@benchwright/testing/pglite-image";

const SECRET = "5e3c0ffee5e3c0ffee1234567890abcd";
const STARS = "*".repeat(SECRET.length);
/** A session's credentials: an SSH password with characters that escape, and a private key. */
const PASSWORD = 'pa$s "wörd"/+';
const PRIVATE_KEY = [
  "-----BEGIN OPENSSH PRIVATE KEY-----",
  "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",
  "QyNTUxOQAAACBqVxkXbT3sRpmmdwVJmOTsnQSxq/w7qJ2D3k5yjdd1VwAAAJgVjE3aFYxN",
  "-----END OPENSSH PRIVATE KEY-----",
].join("\n");

describe("a step's log that masks the step's secret", () => {
  let db: Db;
  let store: FileLogStore;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "bw-masking-"));
    db = await openDb({ pgliteDir: "memory://", pgliteImage: testPgliteImage() });
    await migrate(db);
    store = new FileLogStore(dataDir, db);
  }, 30_000);

  afterAll(async () => {
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A fresh attempt's log, and how to read back what it stored. */
  async function open(scrubber = new Scrubber().add(SECRET)) {
    const key = { execution_id: randomUUID(), step: "run" as const, attempt: 1 };
    const file = logFilePath(dataDir, key);
    const reopen = async () => maskingSecrets(await store.open(key, file), scrubber);
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
    writeCut(
      log,
      text,
      Array.from({ length: text.length }, (_, i) => i),
    );
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
    expect(maskingSecrets(inner, undefined)).toBe(inner);
    expect(maskingSecrets(inner, new Scrubber())).toBe(inner);
    await inner.close();
  });

  it("masks every form the scrubber knows, with stars in place of its bytes, wherever it is cut", async () => {
    const scrubber = new Scrubber().add(SECRET, PASSWORD, PRIVATE_KEY);
    const forms = [
      Buffer.from(SECRET).toString("base64"),
      JSON.stringify(PASSWORD).slice(1, -1),
      encodeURIComponent(PASSWORD),
      PRIVATE_KEY,
      JSON.stringify(PRIVATE_KEY),
      PRIVATE_KEY.split("\n")[2],
    ];
    const text = forms.map((f, i) => `line ${i}: ${f} end\n`).join("") + `basic ${Buffer.from(`user:${PASSWORD}`).toString("base64")}\n`;
    const bytes = Buffer.from(text);
    for (const step of [1, 7, 64, bytes.length]) {
      const { log, stored } = await open(scrubber);
      for (let at = 0; at < bytes.length; at += step) log.write(bytes.subarray(at, at + step));
      expect(log.bytes).toBe(bytes.length);
      await log.flush();
      await log.close();
      const got = Buffer.from(await stored(), "utf8");
      const seen = got.toString("utf8");
      // The same bytes where it is not a star: every offset stays the host's.
      expect(got.length, `cut every ${step}`).toBe(bytes.length);
      for (let i = 0; i < got.length; i++) if (got[i] !== 0x2a) expect(got[i], `byte ${i}, cut every ${step}`).toBe(bytes[i]);
      for (const f of [SECRET, PASSWORD, ...forms]) expect(seen, `cut every ${step}`).not.toContain(f);
      expect(seen).toMatch(
        /^line 0: \*+ end\nline 1: \*+ end\nline 2: \*+ end\nline 3: \*+ end\nline 4: "\*+" end\nline 5: \*+ end\nbasic dXNlcj.\*{16,}[^*]{0,4}\n$/,
      );
    }
  }, 60_000);
});
