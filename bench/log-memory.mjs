// How much memory the server needs to take a large step output to disk, and how fast.
// A step prints --mib MiB (default 1 GiB) of 1 KiB lines; the server (a child process on
// the embedded PGlite) follows it over SSH from a private sshd (or on `local`) to its log file.
// - now: MiB/s over the POST /run wall time, target >= 100 MiB/s; the server's resident
//   growth during the run (peak VmRSS, or VmHWM after resetting it, minus VmRSS before),
//   target < 100 MiB.
// - reference: the same generator through plain OpenSSH into a file (`ssh host '<generator>' > file`,
//   the harness key; local: a spawned bash piped into a file): target >= 0.8x its MiB/s. Also
//   through a warm ssh2 exec piped into a file by this process: its MiB/s and this process's
//   resident growth.
//
// Usage: node bench/log-memory.mjs [--mib=1024] [--provider=ssh|local]
import { closeSync, createWriteStream, openSync, writeFileSync } from "node:fs";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { figure } from "./harness/figures.mjs";
import { LOCAL_SESSION, benchSshd, opensshArgs, sshSessionBody, ssh2Connection } from "./harness/hosts.mjs";
import { httpRequest } from "./harness/http.mjs";
import { MiB, residentBytes } from "./harness/memory.mjs";
import { flags, main, tempDir } from "./harness/script.mjs";
import { benchConfigDir, startServer } from "./harness/server-process.mjs";
import { sleep } from "./harness/timing.mjs";

const opts = flags({ mib: 1024, provider: "ssh" });
const size = opts.mib * MiB;
// 1023 x and a newline per line: a fast generator, so that the follower is what is measured.
// `yes` dies of SIGPIPE when head has enough, which a step run under pipefail would report.
const generator = `{ yes "$(head -c 1023 /dev/zero | tr '\\0' x)" || true; } | head -c ${size}`;
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
        ${generator}
        echo
        echo "BW_METRIC printed_bytes ${size} B"
`;

/** The size of the run's stored log, from the Content-Range of a one-byte range request; undefined without one. */
async function storedLogBytes(api, executionId) {
  const res = await httpRequest("GET", `${api}/executions/${executionId}/logs?step=run`, { headers: { Range: "bytes=-1" } });
  const total = /\/(\d+)$/.exec(res.headers["content-range"] ?? "")?.[1];
  return total === undefined ? undefined : Number(total);
}

/** Samples `read()` every 20 ms until stopped; resolves with the highest value seen. */
function peakSampler(read) {
  let peak = read();
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, read());
    } catch {
      // the process is gone
    }
  }, 20);
  // Stopping twice is harmless: the second call only reads the peak.
  return () => {
    clearInterval(timer);
    return peak;
  };
}

await main(async (defer) => {
  const overSsh = opts.provider === "ssh";
  const sshd = overSsh ? await benchSshd(defer) : undefined;
  const server = await startServer(defer, { dataDir: tempDir(defer, "data"), configDir: benchConfigDir(defer, { flood: definition }) });
  const { call } = server;
  const session = await call("POST", "/sessions/", overSsh ? sshSessionBody(sshd) : LOCAL_SESSION);
  defer(() => call("DELETE", `/sessions/${session.id}`));
  const exec = await call("POST", `/sessions/${session.id}/executions/`, { tool: "flood", workload: "big" });
  await call("POST", `/executions/${exec.id}/prepare`);
  await sleep(1000);

  const before = residentBytes(server.pid);
  // Writing 5 resets the kernel's peak (VmHWM) to the current RSS: no sample can miss the peak.
  let hwmReset = true;
  try {
    writeFileSync(`/proc/${server.pid}/clear_refs`, "5");
  } catch {
    hwmReset = false;
  }
  const stopSampling = peakSampler(() => residentBytes(server.pid));
  const started = performance.now();
  let step;
  try {
    step = await call("POST", `/executions/${exec.id}/run`);
  } finally {
    stopSampling();
  }
  const seconds = (performance.now() - started) / 1000;
  const peak = Math.max(stopSampling(), hwmReset ? residentBytes(server.pid, "VmHWM") : 0);
  const growth = (peak - before) / MiB;
  console.log(
    `server: ${opts.mib} MiB of step output in ${seconds.toFixed(2)} s (${(opts.mib / seconds).toFixed(0)} MiB/s; step duration ${step.duration} s);` +
      ` RSS before ${(before / MiB).toFixed(1)} MiB, peak ${(peak / MiB).toFixed(1)} MiB${hwmReset ? " (VmHWM reset before the run)" : ""}`,
  );

  // The figure is only about taking the output if the server stored all of it.
  const stored = await storedLogBytes(server.api, exec.id);
  console.log(`the server stored ${stored ?? "an unknown number of"} bytes of the run's log (the step printed ${size} and a metric line)`);
  if (!(stored >= size)) console.log("WARNING: the server did not store the whole output: the throughput figure is not about taking it");

  // The reference: the same bytes through the bare transport into a file, in this process.
  const file = join(tempDir(defer, "ref"), "out");
  const ssh = overSsh ? await ssh2Connection(sshd) : undefined;
  if (ssh) defer(() => ssh.end());
  global.gc?.();
  const refBefore = process.memoryUsage().rss;
  const stopRef = peakSampler(() => process.memoryUsage().rss);
  const refStarted = performance.now();
  try {
    if (ssh) {
      const code = await ssh.exec(generator, createWriteStream(file));
      if (code !== 0) throw new Error(`the reference generator exited ${code}`);
    } else {
      const child = spawn("bash", ["-c", generator], { stdio: ["ignore", "pipe", "ignore"] });
      await pipeline(child.stdout, createWriteStream(file));
    }
  } finally {
    stopRef();
  }
  const refSeconds = (performance.now() - refStarted) / 1000;
  const refGrowth = (stopRef() - refBefore) / MiB;
  const transport = ssh ? "warm ssh2 exec" : "spawned bash";
  console.log(`reference (${transport} into a file): ${(opts.mib / refSeconds).toFixed(0)} MiB/s, RSS growth ${refGrowth.toFixed(1)} MiB`);

  // The reference: plain OpenSSH (a spawned bash on local) writing into a file.
  const plainFile = join(tempDir(defer, "plain"), "out");
  const plainStarted = performance.now();
  const fd = openSync(plainFile, "w");
  try {
    const code = await new Promise((resolve, reject) => {
      const child = overSsh
        ? spawn("ssh", opensshArgs(sshd, generator), { stdio: ["ignore", fd, "ignore"] })
        : spawn("bash", ["-c", generator], { stdio: ["ignore", fd, "ignore"] });
      child.once("error", reject);
      child.once("exit", (c) => resolve(c));
    });
    if (code !== 0) throw new Error(`the plain reference exited ${code}`);
  } finally {
    closeSync(fd);
  }
  const plainSeconds = (performance.now() - plainStarted) / 1000;
  const plain = overSsh ? "plain OpenSSH" : "spawned bash";
  console.log(`reference (${plain} into a file): ${(opts.mib / plainSeconds).toFixed(0)} MiB/s`);

  const where = ssh ? "over SSH" : "local";
  figure({
    measure: `${opts.mib} MiB step output ${where}: throughput`,
    now: opts.mib / seconds,
    ref: opts.mib / plainSeconds,
    unit: "MiB/s",
    refLabel: `${plain} into a file`,
    target: ">= 0.8x",
    ok: (r) => r >= 0.8,
  });
  if (ssh) {
    figure({
      measure: `${opts.mib} MiB step output ${where}: throughput vs ssh2`,
      now: opts.mib / seconds,
      ref: opts.mib / refSeconds,
      unit: "MiB/s",
      refLabel: `${transport} into a file`,
    });
  }
  figure({
    measure: `${opts.mib} MiB step output ${where}: server RSS growth`,
    now: growth,
    // A ratio to a reference that grew by next to nothing says nothing.
    ref: refGrowth >= 1 ? refGrowth : NaN,
    unit: "MiB",
    refLabel: refGrowth >= 1 ? `${transport} into a file` : `${transport} into a file grew ${refGrowth.toFixed(1)} MiB`,
    target: "< 100 MiB",
    ok: (_r, now) => now < 100,
  });
  figure({
    measure: `${opts.mib} MiB step output ${where}: server peak RSS during the run`,
    now: peak / MiB,
    ref: before / MiB,
    unit: "MiB",
    refLabel: "its RSS before the run",
  });
});
