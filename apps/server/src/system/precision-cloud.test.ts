import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PlanReport } from "@benchwright/contract";
import { startSshd, type SshdHarness } from "@benchwright/testing";
import { createEc2Double } from "@benchwright/testing/ec2-double";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";
import { runPlan } from "../test-support/plan-run.js";
import { queryDatabase } from "@benchwright/engine/test-access";

// Issue 37, acceptance 3: a precision plan on a cloud (the EC2 double: its machines are a real
// sshd on loopback, the cloud's API is the double) makes the machines its allocation asks for,
// and the cost the report gives for reaching the precision is the ledger's lifetimes × the price.
// The workload's figure depends on the machine it runs on (a fixed offset from the instance's
// id, up to ±3%), so the machines differ as a cloud's do and only more machines narrow the interval.

const FAST = { pollIntervalMs: 5, stateTimeoutMs: 600_000, sshPollIntervalMs: 20, sshTimeoutMs: 3000 };
const PRICE = 0.36;

const SPREAD_TOOL = `id: spread
tool_name: spread
parser: keyvalue
scripts: {}
metrics:
  score: { unit: "points", better: higher }
workloads:
  - id: machine
    workload_name: machine
    workload_description: A score set by the machine (its id's checksum), the same on every run of it
    categories: [test]
    scripts:
      run: |
        sum=$(printf '%s' "$BW_MACHINE" | cksum | cut -d' ' -f1)
        bw_metric score "$((1000 + sum % 61 - 30))" points
`;

let sshd: SshdHarness;
let fx: Fixture;
let api: ReturnType<typeof request>;
let restore: () => void;

beforeAll(async () => {
  sshd = await startSshd();
  const double = createEc2Double({ sshHost: sshd.host, sshPort: sshd.port, privateKey: sshd.privateKey });
  restore = () => double.restore();
  fx = await openFixture({ engine: { outbound: { allowPrivate: true }, providers: { cloud: { ec2Client: double.client, sshPort: sshd.port, ...FAST } } } });
  api = request(fx.app);
  writeFileSync(join(fx.configDir, "benchmarks", "spread.yaml"), SPREAD_TOOL);
  const provider = {
    class: "cloud",
    name: "aws",
    driver: "ec2",
    access_id: "AKIAEXAMPLEACCESSID42",
    secret_key: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    region: "eu-west-1",
  };
  const service = { image: "ubuntu-jammy-22.04-amd64-server-*", size: "t3.micro", vm_user: sshd.username, platform: "debian_12", price_per_hour: PRICE };
  writeFileSync(join(fx.configDir, "providers", "aws.json"), JSON.stringify({ provider, small: service }));
}, 30_000);

afterAll(async () => {
  await fx?.close();
  restore?.();
  await sshd?.stop();
});

async function lifetimes(sessionId: string): Promise<Array<{ id: string; created: Date; destroyed: Date | null }>> {
  const rows = await queryDatabase<{ resource_id: string; created: Date; destroyed_at: Date | null }>(
    fx.engine,
    "SELECT resource_id, created, destroyed_at FROM resources WHERE session_id = $1 AND kind = 'ec2:instance'",
    [sessionId],
  );
  return rows.map((r) => ({ id: r.resource_id, created: new Date(r.created), destroyed: r.destroyed_at && new Date(r.destroyed_at) }));
}

describe("a precision plan on a cloud (the EC2 double)", () => {
  it("makes the machines its rounds ask for, and its cost of reaching the precision is the ledger's lifetimes × the price", async () => {
    const plan = await api.post("/api/v1/plans/").send({
      targets: [{ label: "aws", provider: "aws", service: "small" }],
      benchmarks: [{ tool: "spread", workload: "machine" }],
      precision: { relative_half_width: 0.01, pilot_machines: 3, pilot_runs: 2 },
      budget: { money: 10 },
    });
    expect(plan.status, plan.text).toBe(201);
    expect(plan.body).toMatchObject({ precision: { relative_half_width: 0.01 }, budget: { money: 10 } });
    const run = await runPlan(api, plan.body.id, 240_000);
    expect(run.state, JSON.stringify(run.cells.map((c) => c.error))).toBe("completed");
    const [cell] = run.cells;
    const precision = cell.precision!;
    expect(precision.stop, precision.reason ?? "").toBe("precision_reached");
    expect(precision.reached).toBeLessThanOrEqual(0.01);
    // The pilot's 3 machines were not enough: later rounds added machines (never runs: a machine's runs are all alike).
    expect(precision.rounds[0]).toMatchObject({ added: "pilot", machines: 3, runs: 2 });
    expect(precision.rounds.length, JSON.stringify(precision)).toBeGreaterThan(1);
    console.log(
      `precision on the EC2 double: ${precision.machines} machines over ${precision.rounds.length} rounds, ${precision.reason}, cost ${precision.cost}`,
    );
    expect(precision.rounds.slice(1).every((r) => r.added === "machines")).toBe(true);
    const asked = precision.rounds.reduce((n, r) => n + (r.added === "runs" ? 0 : r.machines), 0);

    for (let i = 0; i < 100; i++) {
      const lives = await lifetimes(run.sessions.aws);
      if (lives.length > 0 && lives.every((m) => m.destroyed !== null)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const machines = await lifetimes(run.sessions.aws);
    // Exactly the machines the rounds asked for, each measured: the cloud made no other.
    expect(machines).toHaveLength(asked);
    expect(precision.machines).toBe(asked);
    const whole = machines.reduce((sum, m) => sum + ((m.destroyed!.getTime() - m.created.getTime()) / 1000 / 3600) * PRICE, 0);

    const report = (await api.get(`/api/v1/plans/${plan.body.id}/runs/${run.id}/report`).expect(200)).body as PlanReport;
    const reported = report.cells[0].states[0].precision!;
    expect(reported).toMatchObject({ unit: "money", currency: "USD", stop: "precision_reached" });
    expect(Math.abs(reported.cost! - whole)).toBeLessThanOrEqual(0.01 * whole);
    // The cell's figure is the two-level model's over every round's machines.
    const figure = report.cells[0].metrics[0].figures[0];
    expect(figure.variability).toMatchObject({ machines: asked, runs: precision.runs, interval_from: "machines" });
  }, 300_000);
});
