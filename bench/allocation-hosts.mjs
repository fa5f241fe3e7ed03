// How much cheaper a precision plan reaches a ±2% interval than a fixed 5 machines × 5 runs, on
// real hosts (issue 37, acceptance 5): a pool of --hosts existing hosts, each an sshd in a network
// namespace of its own and a CPU cgroup of its own (as apps/server's precision-hosts.test sets them
// up), all with the same CPU limit. A run's work varies by up to ±--jitter, as a test with a random
// input does, and each host does up to ±--machine-spread more or less, as a cloud's instances of
// one type differ. By default machines dominate the variance (±2% against ±1%) and a machine
// (its install of --install-turns loop turns) costs less than a run; where runs dominate
// (--machine-spread=0 --jitter=0.05) and a machine costs 70 runs (--install-turns=2500000
// --turns=20000), the allocation came out dearer here (bench/README.md says why).
// Its figure (--metric=work, the default) is the run's work, the loop's turns: no load stretches
// it, where the loop's CPU time (--metric=cpu) had a CV of 8% (0.24-0.29 s) over runs of the same
// turns on this 2-core machine at a load average of 5 (runs differed by 14-17% at 24), which keeps
// a fixed 5 × 5 from ±2% whatever the jitter. A machine costs its prepare, a run its run. Both
// designs run as plans on one server; their cost is the machine time they charged: their
// executions' prepare and run steps, as a `machine_hours` budget on a target without a price
// counts it. A step's parts run on its machines one after another, so a step's duration is its
// machines' time summed (the per-execution breakdown printed shows it: a machine's prepare takes
// about as long in an execution of 2 machines as of 5).
// Since a loaded machine stretches steps by how loaded it was while each plan ran, each design is
// also costed at common prices: its machines and runs at the mean machine and run time of both.
//
// Target: the allocation at least 30% cheaper (a ratio ≤ 0.7) and within ±2%. Where the fixed
// design misses ±2%, what it would cost to reach it is more than it spent: the ratio printed is
// then an upper bound, and says so.
//
// Usage: node bench/allocation-hosts.mjs [--hosts=8] [--cpu-limit=0.5] [--jitter=0.01] [--machine-spread=0.02] [--install-turns=100000] [--turns=200000] [--metric=work|cpu]
// Needs root (network namespaces, cgroups) and iproute2, as the measuring tests do.
import { chmodSync } from "node:fs";
import { loadavg } from "node:os";
import { createNetNamespace, startSshd } from "@benchwright/testing";
import { figure } from "./harness/figures.mjs";
import { flags, main, tempDir } from "./harness/script.mjs";
import { benchConfigDir, startServer } from "./harness/server-process.mjs";
import { sleep } from "./harness/timing.mjs";

const opts = flags({ hosts: 8, cpuLimit: 0.5, jitter: 0.01, installTurns: 100000, turns: 200000, metric: "work", machineSpread: 0.02 });
if (!["work", "cpu"].includes(opts.metric)) throw new Error("--metric is work or cpu");
const H = 0.02;

// $RANDOM (0..32767) spreads a run's turns uniformly over ±jitter; a host's share of ±machine-spread
// comes from its machine id (cksum), the same for both designs, which share the pool.
const REPORT =
  opts.metric === "work"
    ? `bw_metric work "$turns" turns`
    : `TIMEFORMAT=%U
        seconds=$( { time { i=0; while [ "$i" -lt "$turns" ]; do i=$((i + 1)); done; }; } 2>&1 )
        bw_metric spin_seconds "$seconds" s`;
// A tool per design, each with its check (as the catalog's tools have): a machine installs once, a
// later round's execution on it finds the tool there. Its mark is the design's and the machine's,
// in a dir of this run's: the hosts share this machine's file system.
const tool = (id, marks) => `id: ${id}
tool_name: ${id}
parser: keyvalue
timeout: { prepare: 600, run: 120 }
scripts:
  check: |
    test -f "${marks}/${id}-$BW_MACHINE"
  install: |
    i=0; while [ "$i" -lt ${opts.installTurns} ]; do i=$((i + 1)); done
    touch "${marks}/${id}-$BW_MACHINE"
metrics:
  work: { unit: "turns", better: higher }
  spin_seconds: { unit: "s", better: lower }
workloads:
  - id: loop
    workload_name: loop
    workload_description: A shell loop of ${opts.turns} turns ± ${Math.round(opts.jitter * 100)}%, its ${opts.metric === "work" ? "turns" : "CPU time"}
    categories: [test]
    scripts:
      run: |
        base=${opts.turns}
        ${
          opts.machineSpread
            ? `base=$(( base + base * ($(printf %s "$BW_MACHINE" | cksum | cut -d' ' -f1) % 2001 - 1000) * ${Math.round(opts.machineSpread * 1000)} / 1000000 ))
        `
            : ""
        }turns=$(( base + base * (RANDOM - 16384) * ${Math.round(opts.jitter * 1000)} / 16384000 ))
        ${opts.metric === "work" ? `i=0; while [ "$i" -lt "$turns" ]; do i=$((i + 1)); done\n        ` : ""}${REPORT}
`;

await main(
  async (defer) => {
    const hosts = [];
    for (let i = 0; i < opts.hosts; i++) {
      const ns = await createNetNamespace();
      defer(() => ns.remove());
      const sshd = await startSshd({ netns: ns, cpuShares: Math.round(4096 * opts.cpuLimit), cpuLimit: opts.cpuLimit });
      defer(() => sshd.stop());
      hosts.push(sshd);
    }
    const marks = tempDir(defer, "marks");
    chmodSync(marks, 0o1777);
    const server = await startServer(defer, {
      dataDir: tempDir(defer, "data"),
      configDir: benchConfigDir(defer, { jitter_fixed: tool("jitter_fixed", marks), jitter_allocated: tool("jitter_allocated", marks) }),
    });
    const target = (label) => ({
      label,
      config: {
        provider: { class: "existing-vm", name: label },
        pool: { vm_user: hosts[0].username, hosts: hosts.map((h) => ({ host: h.host, port: h.port, ssh_private_key: h.privateKey })) },
      },
    });
    const benchmarks = (design) => [{ tool: `jitter_${design}`, workload: "loop" }];
    console.log(
      `== ${opts.hosts} namespaced hosts at ${opts.cpuLimit} CPU each; runs vary by ±${Math.round(opts.jitter * 100)}%, machines by ±${Math.round(opts.machineSpread * 1000) / 10}%; metric ${opts.metric}; load average ${loadavg()[0].toFixed(1)}`,
    );

    const fixed = await runPlan(server, { targets: [target("fixed")], benchmarks: benchmarks("fixed"), machines: 5, runs: 5 });
    const allocated = await runPlan(server, {
      targets: [target("allocated")],
      benchmarks: benchmarks("allocated"),
      precision: { relative_half_width: H, pilot_machines: 2, pilot_runs: 3, max_rounds: 6 },
      budget: { machine_hours: 1 },
    });
    console.log(`   load average at the end ${loadavg()[0].toFixed(1)}`);
    // Both designs' machines and runs at one price each, whatever the load while each ran.
    const both = [...fixed.executions, ...allocated.executions];
    const perPrepare = sum(both.map((e) => e.prepareSeconds)) / sum(both.map((e) => e.machines));
    const perRun = sum(both.map((e) => e.runSeconds)) / sum(both.map((e) => e.machines * e.runs));
    for (const [name, r] of Object.entries({ fixed, allocated })) {
      r.common = sum(r.executions.map((e) => e.machines * (perPrepare + e.runs * perRun)));
      console.log(
        `${name}: ${r.machines} machines, ${r.values} runs, ±${(100 * r.reached).toFixed(2)}%, ` +
          `${r.prepareSeconds.toFixed(1)} s of prepares + ${r.runSeconds.toFixed(1)} s of runs = ${r.seconds.toFixed(1)} s; at common prices ${r.common.toFixed(1)} s` +
          (r.precision
            ? `; stopped: ${r.precision.stop} (${r.precision.reason}); rounds ${r.precision.rounds.map((x) => `${x.added}:${x.machines}×${x.runs}`).join(", ")}`
            : "") +
          (r.variability ? `; between-machine CV ${fmt(r.variability.between_cv)}, within ${fmt(r.variability.within_cv)}` : ""),
      );
      for (const e of r.executions)
        console.log(
          `   ${e.added}: ${e.machines} machines × ${e.runs} runs: prepare ${e.prepareSeconds.toFixed(1)} s (${(e.prepareSeconds / e.machines).toFixed(1)} s a machine), ` +
            `run ${e.runSeconds.toFixed(1)} s (${(e.runSeconds / (e.machines * e.runs)).toFixed(2)} s a run)`,
        );
    }
    console.log(`common prices: ${perPrepare.toFixed(1)} s a machine's prepare, ${perRun.toFixed(2)} s a run`);
    const fixedReached = fixed.reached <= H;
    const bound = fixedReached ? "" : ` (the fixed design missed ±2%: what it would take to reach it costs more, so the ratio is an upper bound)`;
    const ok = (ratio) => ratio <= 0.7 && allocated.reached <= H;
    const about = `reached ±${(100 * allocated.reached).toFixed(2)}%; ${allocated.machines} machines × ${allocated.values} runs in all`;
    const ref = `fixed 5 machines × 5 runs, reached ±${(100 * fixed.reached).toFixed(2)}%${fixedReached ? "" : ", NOT ±2%"}`;
    const goal = "<= 0.7x (30% cheaper), within ±2%";
    figure({
      measure: `machine time to a ±2% interval by allocation (${about})`,
      now: allocated.seconds,
      ref: fixed.seconds,
      unit: "s",
      refLabel: ref,
      target: goal,
      ok,
    });
    figure({ measure: "the same at common prices (load-independent)", now: allocated.common, ref: fixed.common, unit: "s", refLabel: ref, target: goal, ok });
    console.log(
      allocated.reached <= H
        ? `the allocation reached ±2% for ${(allocated.seconds / fixed.seconds).toFixed(2)}x the fixed 5 × 5's machine time (${(allocated.common / fixed.common).toFixed(2)}x at common prices)${bound}`
        : `the allocation did not reach ±2% (±${(100 * allocated.reached).toFixed(2)}%): no cost to reach it to compare`,
    );
  },
  { limitSeconds: 1800 },
);

function fmt(x) {
  return x === null || x === undefined ? "-" : `${(100 * x).toFixed(1)}%`;
}

function sum(xs) {
  return xs.reduce((a, x) => a + x, 0);
}

/** Makes the plan, runs it to its end, and reads what its cell measured and charged, execution by execution. */
async function runPlan(server, body) {
  const { call } = server;
  const plan = await call("POST", "/plans/", body);
  const run = await call("POST", `/plans/${plan.id}/runs`, {});
  let state = run;
  while (!["completed", "failed", "cancelled"].includes(state.state)) {
    await sleep(1000);
    state = await call("GET", `/plans/${plan.id}/runs/${run.id}`);
  }
  if (state.state !== "completed") throw new Error(`plan run ${run.id} ${state.state}: ${JSON.stringify(state.cells.map((c) => c.error))}`);
  const report = await call("GET", `/plans/${plan.id}/runs/${run.id}/report`);
  const [cell] = report.cells;
  const f = cell.metrics[0].figures[0];
  const v = f.variability;
  const mean = v?.mean ?? f.mean;
  const reached = v ? (v.ci_high - v.ci_low) / 2 / Math.abs(mean) : Number.NaN;
  const precision = cell.states[0].precision ?? null;
  const rounds = precision ? precision.rounds : [{ execution_id: state.cells[0].execution_id, machines: body.machines, runs: body.runs, added: "fixed" }];
  const executions = [];
  for (const r of rounds) {
    const exec = await call("GET", `/executions/${r.execution_id}`);
    const seconds = (step) =>
      sum(exec.steps.filter((s) => s.state === "succeeded" && (step === "prepare") === (s.step === "prepare")).map((s) => Number(s.duration ?? 0)));
    executions.push({ added: r.added, machines: r.machines, runs: r.runs, prepareSeconds: seconds("prepare"), runSeconds: seconds("run") });
  }
  const prepareSeconds = sum(executions.map((e) => e.prepareSeconds));
  const runSeconds = sum(executions.map((e) => e.runSeconds));
  return {
    machines: v?.machines ?? 1,
    values: v?.runs ?? f.n,
    reached,
    variability: v,
    precision,
    executions,
    prepareSeconds,
    runSeconds,
    seconds: prepareSeconds + runSeconds,
  };
}
