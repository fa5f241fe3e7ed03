// Latency of the SSH transport and of the step runner on the harness sshd (loopback):
// a no-op `exec("true")` on a warm pooled connection, and a whole StepRunner.run of `true`
// (prepare, two uploads, launch, follow). Prints p50 and p90 in ms.
// Usage: node bench/ssh-latency.mjs [execs=200] [runs=30]
import { randomUUID } from "node:crypto";
import { startSshd, sshTargetOf } from "@benchwright/testing";
import { InMemoryHostKeyStore, SshPool, StepRunner } from "@benchwright/engine";
import { quantile, timeEach } from "./harness/timing.mjs";

const execs = Number(process.argv[2] ?? 200);
const runs = Number(process.argv[3] ?? 30);

function quantiles(samples) {
  const at = (q) => quantile(samples, q).toFixed(1);
  return `p50 ${at(0.5)} ms, p90 ${at(0.9)} ms (n=${samples.length})`;
}

const sshd = await startSshd();
const pool = new SshPool({ hostKeys: new InMemoryHostKeyStore() });
const runner = new StepRunner();
const transport = () => pool.get(sshTargetOf(sshd), "bench/m1");
const root = `~/.benchwright/bench-${randomUUID()}`;
try {
  await transport().exec("true"); // warm up: connect and check the host key
  console.log(`exec("true") on a warm connection: ${quantiles(await timeEach(execs, () => transport().exec("true")))}`);
  const samples = await timeEach(runs, async (i) => {
    const outcome = await runner.run(transport, { dir: `${root}/s${i}`, script: "true", timeoutMs: 60_000 }, () => undefined);
    if (outcome.exitCode !== 0) throw new Error(`step ${i} ended with ${JSON.stringify(outcome)}`);
  });
  console.log(`StepRunner.run of "true":           ${quantiles(samples)}`);
} finally {
  await runner.remove(transport(), root).catch(() => undefined);
  await pool.close();
  await sshd.stop();
}
