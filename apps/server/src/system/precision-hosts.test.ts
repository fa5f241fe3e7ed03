import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PlanReport } from "@benchwright/contract";
import { createNetNamespace, type NetNamespace, type SshdHarness, startSshd } from "@benchwright/testing";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";
import { runPlan } from "../test-support/plan-run.js";

// Issue 37, acceptance 2: a precision plan on two pools of real hosts, each host an sshd in a
// network namespace of its own (reached over a veth pair) and a CPU cgroup of its own. The hosts
// of `uneven` may use a quarter, a half, three quarters and all of a CPU (with weights to match):
// a known spread between machines; those of `even` half a CPU each. A CPU-bound loop of a fraction of a second is the
// workload. In the measuring tier: its figures are CPU times, which the machine's load would skew.

const LIMITS = { uneven: [0.25, 0.5, 0.75, 1], even: [0.5, 0.5, 0.5, 0.5] } as const;

const SPIN_TOOL = `id: spin
tool_name: spin
parser: keyvalue
scripts: {}
metrics:
  spin_seconds: { unit: "s", better: lower }
workloads:
  - id: loop
    workload_name: loop
    workload_description: A shell loop of 30,000 turns, timed
    categories: [test]
    scripts:
      run: |
        bw_now -v start
        i=0; while [ "$i" -lt 30000 ]; do i=$((i + 1)); done
        bw_now -v end
        bw_elapsed -v seconds "$start" "$end"
        bw_metric spin_seconds "$seconds" s
`;

const namespaces: NetNamespace[] = [];
const hosts: Record<string, SshdHarness[]> = { uneven: [], even: [] };
const all: SshdHarness[] = [];
let fx: Fixture;
let api: ReturnType<typeof request>;

beforeAll(async () => {
  // The eight hosts and the server start at once: each start mostly waits (ssh-keygen, sshd's banner).
  // Each kept as it comes (for afterAll to stop), then put in the order of its limit.
  const started = Object.entries(LIMITS).flatMap(([label, limits]) =>
    limits.map(async (cpuLimit, at) => {
      const ns = await createNetNamespace();
      namespaces.push(ns);
      // The weight follows the limit: on a busy machine the weights share the CPUs out, on an idle one the limits do.
      const host = await startSshd({ netns: ns, cpuShares: Math.round(4096 * cpuLimit), cpuLimit });
      all.push(host);
      return { label, at, host };
    }),
  );
  const [fixture, ...made] = await Promise.all([openFixture(), ...started]);
  fx = fixture as Fixture;
  for (const { label, at, host } of made as Array<{ label: string; at: number; host: SshdHarness }>) hosts[label][at] = host;
  api = request(fx.app);
  writeFileSync(join(fx.configDir, "benchmarks", "spin.yaml"), SPIN_TOOL);
}, 60_000);

afterAll(async () => {
  await fx?.close();
  await Promise.all(all.map((h) => h.stop()));
  await Promise.all(namespaces.map((ns) => ns.remove()));
});

const pool = (label: string) => ({
  provider: { class: "existing-vm", name: label },
  pool: {
    vm_user: hosts[label][0].username,
    hosts: hosts[label].map((h) => ({ host: h.host, port: h.port, ssh_private_key: h.privateKey })),
  },
});

describe("a precision plan on pools of namespaced hosts", () => {
  it("sees the uneven pool's spread between machines, gives it more machines, and says why each target stopped", async () => {
    const plan = await api.post("/api/v1/plans/").send({
      targets: Object.keys(LIMITS).map((label) => ({ label, config: pool(label) })),
      benchmarks: [{ tool: "spin", workload: "loop" }],
      precision: { relative_half_width: 0.02, pilot_machines: 3, pilot_runs: 2, max_rounds: 3 },
      budget: { wall_seconds: 300 },
    });
    expect(plan.status, plan.text).toBe(201);
    const run = await runPlan(api, plan.body.id, 400_000);
    expect(run.state, JSON.stringify(run.cells.map((c) => c.error))).toBe("completed");
    const report = (await api.get(`/api/v1/plans/${plan.body.id}/runs/${run.id}/report`).expect(200)).body as PlanReport;
    const [cell] = report.cells;
    const figure = (target: string) => cell.metrics[0].figures.find((f) => f.target === target)!;
    const precision = (target: string) => cell.states.find((s) => s.target === target)!.precision!;
    const [uneven, even] = [figure("uneven").variability!, figure("even").variability!];
    console.log(
      `between-machine CV: uneven ${uneven.between_cv} [${uneven.between_cv_ci_low}, ${uneven.between_cv_ci_high}], even ${even.between_cv}; ` +
        `uneven: ${JSON.stringify(precision("uneven"))}; even: ${JSON.stringify(precision("even"))}`,
    );

    // A quarter to a whole CPU: the uneven pool's machines differ by far more than the even one's.
    expect(uneven.between_cv!).toBeGreaterThan(0.1);
    expect(uneven.between_cv!).toBeGreaterThan(3 * (even.between_cv ?? 0));
    expect(uneven.interval_from).toBe("machines");
    // Only machines narrow the uneven pool's interval: its first round after the pilot adds machines, up to the pool's 4.
    const u = precision("uneven");
    expect(u.rounds[1]).toMatchObject({ added: "machines", first_machine: 3 });
    expect(u.machines).toBeGreaterThanOrEqual(precision("even").machines);
    expect(u.machines).toBeLessThanOrEqual(4);
    // It cannot reach ±2% on 4 machines this different: it says so, and what it reached.
    expect(u.stop).toBe("machines_exhausted");
    expect(u.reason).toMatch(/the target has 4 machines/);
    expect(u.reached!).toBeGreaterThan(0.02);
    for (const target of ["uneven", "even"]) {
      const p = precision(target);
      expect(p.unit).toBe("wall_seconds");
      expect(p.stop).not.toBeNull();
      expect(p.reason).toBeTruthy();
      expect(p.cost!).toBeLessThanOrEqual(300 + 60);
    }
  }, 420_000);
});
