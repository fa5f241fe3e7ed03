import { describe, expect, it } from "vitest";
import { isRetryableTransportError } from "./transport-error.js";
import { LocalSpawner } from "./local-spawner.js";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("LocalSpawner", () => {
  it("runs a command under bash and gives its code, stdout and stderr", async () => {
    const spawner = new LocalSpawner();
    const r = await spawner.exec('printf out; printf err >&2; echo "$0"; exit 3');
    expect(r).toEqual({ code: 3, signal: null, stdout: "outbash\n", stderr: "err" });
  });

  it("runs commands with the step environment, never the server's", async () => {
    process.env.BENCHWRIGHT_SPAWNER_PROBE = "the server's";
    process.env.SSH_CLIENT = "10.0.0.1 1 22";
    try {
      const spawner = new LocalSpawner();
      const r = await spawner.exec("env");
      expect(r.stdout).toMatch(/^PATH=/m);
      expect(r.stdout).not.toMatch(/^(BENCHWRIGHT_|SSH_CLIENT|NODE_OPTIONS)/m);
      // Nor the helper itself, whose environment its commands could read.
      const helper = await spawner.exec(`tr '\\0' '\\n' < /proc/${spawner.helperPid}/environ`);
      expect(helper.stdout).toMatch(/^PATH=/m);
      expect(helper.stdout).not.toMatch(/^BENCHWRIGHT_/m);
    } finally {
      delete process.env.BENCHWRIGHT_SPAWNER_PROBE;
      delete process.env.SSH_CLIENT;
    }
  });

  it("streams each command's output in order, to its own caller, many at once", async () => {
    const spawner = new LocalSpawner();
    const results = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const chunks: Buffer[] = [];
        const r = await spawner.exec(`seq ${i} 20000`, { onStdout: (c) => chunks.push(c) });
        expect(r.code).toBe(0);
        return Buffer.concat(chunks).toString();
      }),
    );
    results.forEach((text, i) => {
      expect(text).toBe(Array.from({ length: 20001 - i }, (_, k) => i + k).join("\n") + "\n");
    });
  });

  it("delivers a large output whole, however fast it comes", async () => {
    const spawner = new LocalSpawner();
    let bytes = 0;
    let last = 0;
    const r = await spawner.exec("head -c 64000000 /dev/zero | tr '\\0' a; printf z", {
      onStdout: (c) => {
        bytes += c.length;
        last = c[c.length - 1];
      },
    });
    expect(r.code).toBe(0);
    expect(bytes).toBe(64_000_001);
    expect(String.fromCharCode(last)).toBe("z");
  }, 60_000);

  it("kills a command whose caller aborts, and answers with the abort's reason at once", async () => {
    const spawner = new LocalSpawner();
    const abort = new AbortController();
    let pid = 0;
    const running = spawner.exec("echo $$; exec sleep 30", { signal: abort.signal, onStdout: (c) => (pid = Number(c.toString().trim())) });
    while (!pid) await new Promise((r) => setTimeout(r, 10));
    abort.abort(new Error("enough"));
    await expect(running).rejects.toThrow("enough");
    for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 20));
    expect(alive(pid)).toBe(false);
  });

  it("fails what a dying helper ran with a retryable error, and starts a new helper for the next command", async () => {
    const spawner = new LocalSpawner();
    let pid = 0;
    const running = spawner.exec("echo $$; exec sleep 30", { onStdout: (c) => (pid = Number(c.toString().trim())) });
    while (!pid) await new Promise((r) => setTimeout(r, 10));
    const first = spawner.helperPid!;
    process.kill(first, "SIGKILL");
    const error = await running.catch((e: unknown) => e);
    process.kill(pid, "SIGKILL");
    expect(isRetryableTransportError(error)).toBe(true);
    expect((await spawner.exec("echo again")).stdout).toBe("again\n");
    expect(spawner.helperPid).not.toBe(first);
  });

  it("lets its helper go after a while without a command, and starts one again when needed", async () => {
    const spawner = new LocalSpawner(200);
    await spawner.exec("true");
    const first = spawner.helperPid!;
    for (let i = 0; i < 100 && alive(first); i++) await new Promise((r) => setTimeout(r, 20));
    expect(alive(first)).toBe(false);
    expect(spawner.helperPid).toBeUndefined();
    expect((await spawner.exec("echo back")).stdout).toBe("back\n");
  });
});
