// How much memory the server needs to stream a large step log over SSH to disk, and how fast.
// Target: resident memory grows by less than 100 MiB for a 200 MiB log.
// Usage: node bench/log-memory.mjs [MiB=200]
import { startSshd } from "@benchwright/engine/testing";
import { benchServer, mib } from "./harness.mjs";

const size = Number(process.argv[2] ?? 200) * 2 ** 20;
const definition = `id: flood
tool_name: Flood
description: Prints a given amount of output
parser: keyvalue
timeout: {prepare: 60, run: 900}
scripts: {}
workloads:
  - id: big
    workload_name: Big output
    workload_description: Lines of x
    categories: [bench]
    scripts:
      run: |
        head -c ${size} /dev/zero | tr '\\0' x | fold -w 1023
        echo
        echo "BW_METRIC printed_bytes ${size} B"
`;

const sshd = await startSshd();
const bench = await benchServer({ benchmarks: { flood: definition } });
try {
  const session = await bench.call("POST", "/sessions/", {
    config: { provider: { class: "existing-vm", name: "bench" }, vms: { host: sshd.host, port: sshd.port, vm_user: sshd.username, ssh_private_key: sshd.privateKey } },
  });
  const exec = await bench.call("POST", `/sessions/${session.id}/executions/`, { tool: "flood", workload: "big" });
  await bench.call("POST", `/executions/${exec.id}/prepare`);
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = performance.now();
  const step = await bench.call("POST", `/executions/${exec.id}/run`);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  console.log(`log streamed over SSH: ${mib(size)} MiB in ${seconds.toFixed(2)} s (${(size / 2 ** 20 / seconds).toFixed(1)} MiB/s); step duration ${step.duration} s`);
  console.log(`server RSS: before ${mib(before)} MiB, peak ${mib(peak)} MiB, growth ${mib(peak - before)} MiB (target < 100 MiB)`);
  await bench.call("DELETE", `/sessions/${session.id}`);
} finally {
  await bench.close();
  await sshd.stop();
}
