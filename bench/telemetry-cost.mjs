// What the telemetry sampler costs the machine it measures: its CPU time over an `idle/idle60`
// run (a 60 s sleep) on an existing-vm session whose host is the private sshd, i.e. this
// machine, in percent of one CPU. The sampler is the bash loop the step's shell starts beside
// it (packages/engine/src/runner/telemetry-sampler.ts); it is found as the process whose stdout
// is the step dir's telemetry.log and read from /proc/<pid>/stat (its user and system time,
// and its waited-for children's) every 250 ms while it lives.
//
// Reference, in the same 60 s: a naive sampler, a shell loop that copies the same five /proc
// files with `cat` and sleeps with `sleep 1` (two processes spawned a second), read the same way.
//
// Usage: node bench/telemetry-cost.mjs [--seconds=60]
import { spawn, execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { Engine } from "@benchwright/engine";
import { startSshd } from "@benchwright/testing";
import { figure } from "./harness/figures.mjs";
import { flags, main, tempDir } from "./harness/script.mjs";

const opts = flags({ seconds: 60 });
const TICKS = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

/** CPU seconds of a process and of its children it waited for, or undefined once it is gone. */
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command (which may hold spaces), from the 3rd: state is [0], utime [11].
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / TICKS;
  } catch {
    return undefined;
  }
}

/** The pid whose stdout is `file`, if one is running. */
function writerOf(file) {
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/1`) === file) return Number(pid);
    } catch {
      // gone, or not ours to read
    }
  }
  return undefined;
}

/** Follows a process's CPU time until `done` settles: the first and last readings, with their times. */
function follow(findPid, done) {
  const track = { pid: undefined, first: undefined, last: undefined };
  const look = () => {
    track.pid ??= findPid();
    if (track.pid === undefined) return;
    const cpu = cpuSeconds(track.pid);
    if (cpu === undefined) return;
    const reading = { at: performance.now(), cpu };
    track.first ??= reading;
    track.last = reading;
  };
  const timer = setInterval(look, 250);
  return done.finally(() => clearInterval(timer)).then(() => track);
}

/** Percent of one CPU between a track's first and last readings. */
function share(track) {
  if (!track.first || track.last.at - track.first.at < 1000) return NaN;
  return (100 * (track.last.cpu - track.first.cpu)) / ((track.last.at - track.first.at) / 1000);
}

await main(async (defer) => {
  const sshd = await startSshd();
  defer(() => sshd.stop());
  const dataDir = tempDir(defer, "telemetry");
  const engine = await Engine.open({ dataDir, configDir: join(dataDir, "config") });
  defer(() => engine.close());
  const session = await engine.createSession({
    config: {
      provider: { class: "existing-vm", name: "bench" },
      vms: { host: sshd.host, port: sshd.port, vm_user: sshd.username, ssh_private_key: sshd.privateKey },
    },
  });
  defer(() => engine.deleteSession(session.id).catch(() => undefined));
  const execution = await engine.createExecution(session.id, { tool: "idle", workload: "idle60", params: { seconds: opts.seconds } });
  await engine.prepare(execution.id);
  const log = join(homedir(), ".benchwright", execution.id, "run-1", "telemetry.log");

  const naive = spawn("bash", ["-c", "while :; do cat /proc/stat /proc/loadavg /proc/meminfo /proc/diskstats /proc/net/dev > /dev/null; sleep 1; done"], {
    stdio: "ignore",
  });
  defer(() => naive.kill("SIGKILL"));
  console.log(`idle/idle60 (${opts.seconds} s) with its sampler, and the naive loop beside it...`);
  const run = engine.run(execution.id);
  const [sampler, reference] = await Promise.all([follow(() => writerOf(log), run), follow(() => naive.pid, run)]);
  naive.kill("SIGKILL");
  if (!existsSync(log)) throw new Error(`no ${log}: the run had no sampler`);
  const samples = readFileSync(log, "utf8")
    .split("\n")
    .filter((l) => l.startsWith("T ")).length;
  console.log(
    `  sampler pid ${sampler.pid}: ${samples} samples, ${(sampler.last.cpu - sampler.first.cpu).toFixed(2)} CPU s over ${((sampler.last.at - sampler.first.at) / 1000).toFixed(1)} s`,
  );
  figure({
    measure: `telemetry sampler CPU over an idle ${opts.seconds} s run (% of one CPU)`,
    now: share(sampler),
    ref: share(reference),
    unit: "%",
    refLabel: "cat + sleep loop",
    digits: 3,
    target: "< 0.5 %",
    ok: (_ratio, now) => now < 0.5,
  });
});
