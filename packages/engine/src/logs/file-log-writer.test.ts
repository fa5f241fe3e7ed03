import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FileLogStore } from "./file-log-store.js";
import type { LogWriterOptions } from "./log-store.js";

const MiB = 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), "bw-file-log-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
async function open(options?: LogWriterOptions) {
  const path = join(dir, `${++n}.log`);
  const writer = await new FileLogStore(dir).open({ execution_id: `e${n}`, step: "run", attempt: 1 }, path, options);
  return { writer, path };
}

// The file writer writes off the event loop (writev on libuv's pool): what it took and has not
// written yet is still counted, read by `tail` and written by `close`.
describe("FileLogWriter", () => {
  it("counts what it took at once, and the file holds it after flush", async () => {
    const { writer, path } = await open();
    const data = randomBytes(3 * MiB);
    for (let at = 0; at < data.length; at += 32 * 1024) writer.write(data.subarray(at, at + 32 * 1024));
    expect(writer.bytes).toBe(data.length);
    await writer.flush();
    expect(readFileSync(path).equals(data)).toBe(true);
    await writer.close();
  });

  it("reads in its tail the bytes on their way to the file", async () => {
    const { writer } = await open();
    writer.write(Buffer.from("first line\n"));
    await writer.flush();
    writer.write(Buffer.from("second "));
    writer.write(Buffer.from("line\n"));
    // Not written yet: the write of "second " is under way, "line\n" waits for it.
    expect(writer.tail(100)).toBe("first line\nsecond line\n");
    expect(writer.tail(100, 13)).toBe("cond line\n");
    expect(writer.tail(8)).toBe("nd line\n".slice(-8));
    await writer.close();
  });

  it("stores everything it took when closed, even when told to give up", async () => {
    const { writer, path } = await open();
    const data = randomBytes(2 * MiB);
    writer.write(data.subarray(0, MiB));
    writer.write(data.subarray(MiB));
    await writer.close(AbortSignal.abort());
    expect(readFileSync(path).equals(data)).toBe(true);
  });

  it("reports as progress only what the file holds, the whole log at last", async () => {
    const progress: number[] = [];
    const { writer, path } = await open({ onProgress: (bytes) => progress.push(statSync(path).size >= bytes ? bytes : -bytes) });
    for (let i = 0; i < 100; i++) writer.write(randomBytes(64 * 1024));
    await writer.close();
    expect(progress.every((b) => b >= 0)).toBe(true);
    expect(progress.at(-1)).toBe(100 * 64 * 1024);
  });

  it("drops queued bytes past a truncation, and goes on from there", async () => {
    const { writer, path } = await open();
    writer.write(Buffer.from("kept:"));
    await writer.flush();
    writer.write(Buffer.from("written"));
    writer.write(Buffer.from(" and queued"));
    await writer.truncate(8);
    expect(writer.bytes).toBe(8);
    writer.write(Buffer.from("!"));
    expect(writer.tail(100)).toBe("kept:wri!");
    await writer.close();
    expect(readFileSync(path, "utf8")).toBe("kept:wri!");
  });

  it("says it is not writable past its high-water mark until the file catches up", async () => {
    const { writer } = await open();
    const chunk = randomBytes(MiB);
    let taken = 0;
    while (writer.writable) {
      writer.write(chunk);
      taken++;
      expect(taken).toBeLessThan(64);
    }
    expect(taken).toBeGreaterThanOrEqual(16);
    await writer.drain();
    expect(writer.writable).toBe(true);
    await writer.close();
  });
});
