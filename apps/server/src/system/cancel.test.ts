import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { startSshd, type SshdHarness } from "@benchwright/testing";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";

// POST /executions/{id}/cancel through the API, on an existing-vm session whose host is the
// private sshd: the step's processes really run over SSH and are really stopped there. Each
// workload sleeps on its first attempt only, so that running it again is quick.
const DEFINITION = [
  "id: cancellable",
  "tool_name: Cancellable",
  "parser: keyvalue",
  "roles: { server: { serves: true }, client: {} }",
  "workloads:",
  "  - id: sleeps",
  "    categories: [test]",
  "    scripts:",
  "      run@server: |",
  // The guard a serving role keeps its port with (nftables here, as root): the cancel must take it away.
  "        bw_guard_port $(( 30000 + RANDOM % 10000 ))",
  "        bw_ready port=1",
  "        sleep 2711",
  "      run@client: |",
  '        echo "run $BW_ATTEMPT of the client begins"',
  '        if [ "$BW_ATTEMPT" = 1 ]; then sleep 2712; fi',
  "        bw_metric attempt $BW_ATTEMPT count",
  "",
].join("\n");

/** Processes of this machine whose command line holds `text` (the sshd's steps run here). */
function processesWith(text: string): string[] {
  try {
    return execFileSync("pgrep", ["-af", "--", text], { encoding: "utf8" })
      .split("\n")
      .filter((l) => l && !l.includes("pgrep"));
  } catch {
    return [];
  }
}

describe("cancelling a step through the API, the session kept", () => {
  let sshd: SshdHarness;
  let fx: Fixture;
  let api: ReturnType<typeof request>;
  let sessionId: string;

  beforeAll(async () => {
    sshd = await startSshd();
    fx = await openFixture();
    writeFileSync(join(fx.configDir, "benchmarks", "cancellable.yaml"), DEFINITION);
    api = request(fx.app);
    const res = await api.post("/api/v1/sessions/").send({
      config: {
        provider: { class: "existing-vm", name: "lab" },
        vms: { host: sshd.host, port: sshd.port, vm_user: sshd.username, ssh_private_key: sshd.privateKey },
      },
    });
    expect(res.status, res.text).toBe(200);
    sessionId = res.body.id;
  }, 60_000);

  afterAll(async () => {
    if (sessionId) await api.delete(`/api/v1/sessions/${sessionId}`);
    await fx?.close();
    await sshd?.stop();
  }, 60_000);

  async function prepared(tool: string, workload: string): Promise<string> {
    const id = (await api.post(`/api/v1/sessions/${sessionId}/executions/`).send({ tool, workload }).expect(200)).body.id;
    const res = await api.post(`/api/v1/executions/${id}/prepare`);
    expect(res.status, res.text).toBe(200);
    return id;
  }

  /** Waits until the run's client part has begun (its line is in the log). */
  async function clientBegun(id: string): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const log = await api.get(`/api/v1/executions/${id}/logs`).query({ step: "run" });
      if (log.status === 200 && log.text.includes("of the client begins")) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error("the run's client never began");
  }

  it("stops a running run and its serving role on the host, answers the failed execution, and runs again", async () => {
    const id = await prepared("cancellable", "sleeps");
    const waiting = api.post(`/api/v1/executions/${id}/run`).then((res) => res);
    await clientBegun(id);
    expect(processesWith("sleep 2711")).toHaveLength(1);
    expect(processesWith("sleep 2712")).toHaveLength(1);
    const serverDir = join(homedir(), ".benchwright", id, "run-1-server");
    const table = `bw_${createHash("md5").update(serverDir).digest("hex").slice(0, 16)}`;
    expect(execFileSync("nft", ["list", "tables"], { encoding: "utf8" })).toContain(table);

    // A cancel with a body is refused, and stops nothing.
    const refused = await api.post(`/api/v1/executions/${id}/cancel`).send({ now: true });
    expect(refused.status).toBe(400);
    expect(refused.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect((await api.get(`/api/v1/executions/${id}`)).body.state).toBe("running");

    const res = await api.post(`/api/v1/executions/${id}/cancel`).set("X-Request-Id", "dashboard-cancel-7").set("X-Fields", "id,state,steps");
    expect(res.status, res.text).toBe(200);
    expect(res.headers["x-request-id"]).toBe("dashboard-cancel-7");
    expect(Object.keys(res.body).sort()).toEqual(["id", "state", "steps"]);
    expect(res.body.state).toBe("run_failed");
    expect(res.body.steps.at(-1)).toMatchObject({ step: "run", attempt: 1, state: "failed", exit_code: null });
    expect(res.body.steps.at(-1).error).toMatch(/^run 1 of cancellable\/sleeps was cancelled at \S+ \(request dashboard-cancel-7\)$/);

    // The client that waited on the run hears of it as a failed step.
    const ran = await waiting;
    expect(ran.status).toBe(502);
    expect(ran.body).toMatchObject({ code: "step_cancelled", title: "Step cancelled", state: "run_failed", exit_code: null });
    expect(ran.body.detail).toContain("(request dashboard-cancel-7)");
    expect((await api.get(`/api/v1/executions/${id}/steps/run/1`)).body).toMatchObject({ state: "failed", error: { code: "step_cancelled" } });

    // Nothing of it runs on the host, the guard is gone, and the dirs stay with their logs.
    expect(processesWith("sleep 2711")).toEqual([]);
    expect(processesWith("sleep 2712")).toEqual([]);
    expect(execFileSync("nft", ["list", "tables"], { encoding: "utf8" })).not.toContain(table);
    expect(existsSync(join(serverDir, "firewall.undo"))).toBe(false);
    const runDir = join(homedir(), ".benchwright", id, "run-1-client");
    expect(readdirSync(runDir)).toEqual(expect.arrayContaining(["step.log", "step.pid"]));
    expect(readFileSync(join(runDir, "step.log"), "utf8")).toContain("run 1 of the client begins");
    const log = await api.get(`/api/v1/executions/${id}/logs`).query({ step: "run", attempt: 1 });
    expect(log.text).toMatch(/=== run 1 cancelled at \S+ \(request dashboard-cancel-7\) ===\n$/);

    // The session stays: the run again is a new attempt, and completes.
    const again = await api.post(`/api/v1/executions/${id}/run`);
    expect(again.status, again.text).toBe(200);
    const execution = (await api.get(`/api/v1/executions/${id}`)).body;
    expect(execution.state).toBe("completed");
    expect(execution.metrics).toEqual([expect.objectContaining({ name: "attempt", value: 2, role: "client" })]);
    expect((await api.get(`/api/v1/sessions/${sessionId}`)).body.state).toBe("active");
  }, 90_000);

  it("answers 409 no_running_step when nothing runs, and 404 for no execution, changing nothing", async () => {
    const id = await prepared("idle", "idle0");
    const before = (await api.get(`/api/v1/executions/${id}`)).body;
    const res = await api.post(`/api/v1/executions/${id}/cancel`);
    expect(res.status).toBe(409);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: "no_running_step", title: "No step under way", state: "prepared" });
    expect(res.body.detail).toBe(`Execution ${id} is prepared; no prepare or run is under way to cancel`);
    expect((await api.get(`/api/v1/executions/${id}`)).body).toEqual(before);
    // Nothing ran: the run goes as it would have.
    expect((await api.post(`/api/v1/executions/${id}/run`)).status).toBe(200);
    expect((await api.post(`/api/v1/executions/${id}/cancel`).send({})).body).toMatchObject({ code: "no_running_step", state: "completed" });

    // The contract's 400 example, as the server answers it.
    const masked = await api.post(`/api/v1/executions/${id}/cancel`).set("X-Fields", "state,steps{error");
    expect(masked.status).toBe(400);
    expect(masked.body).toMatchObject({ code: "bad_fields_mask", detail: "X-Fields mask 'state,steps{error' is malformed: a '{' is never closed" });

    const missing = await api.post("/api/v1/executions/00000000-0000-4000-8000-000000000000/cancel");
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: "not_found" });
  }, 60_000);
});
