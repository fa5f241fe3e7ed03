import { connect } from "node:net";
import { BenchwrightError } from "../../errors.js";
import { sleep } from "./polling.js";

/**
 * Whether an SSH server answers at host:port: a TCP connection that sends an `SSH-2.0`
 * (or `SSH-1.99`) banner. A port that is open but not yet serving (cloud-init still
 * running) does not count.
 */
function probeSsh(host: string, port: number, timeoutMs = 5000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    let received = "";
    let settled = false;
    const done = (ok: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      received += chunk;
      // Servers may send other lines before the banner (RFC 4253, 4.2).
      for (const line of received.split("\n")) {
        if (line.startsWith("SSH-2.0-") || line.startsWith("SSH-1.99-")) return done(true);
      }
      if (received.length > 8192) done(false);
    });
    socket.on("error", () => done(false));
    socket.on("close", () => done(false));
  });
}

/**
 * Probes until SSH answers. Gives up after `timeoutMs`, or after `attempts` probes when given
 * (the ancestor's `new_vm.connection_retry_times`), whichever comes first.
 */
export async function waitForSsh(
  host: string,
  port: number,
  opts: { timeoutMs: number; intervalMs: number; attempts?: number; signal?: AbortSignal },
): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs;
  for (let attempt = 1; ; attempt++) {
    const left = deadline - Date.now();
    if (await probeSsh(host, port, Math.max(100, Math.min(5000, left)))) return;
    if (opts.attempts !== undefined && attempt >= opts.attempts) {
      throw new BenchwrightError(
        "provider_failed",
        `SSH on ${host}:${port} did not answer after ${attempt} attempt${attempt === 1 ? "" : "s"}, ${opts.intervalMs / 1000} s apart`,
      );
    }
    if (Date.now() + opts.intervalMs > deadline) {
      throw new BenchwrightError("provider_failed", `SSH on ${host}:${port} did not answer within ${Math.round(opts.timeoutMs / 1000)} s`);
    }
    await sleep(opts.intervalMs, opts.signal);
  }
}
