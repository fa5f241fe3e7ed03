import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { followStep, openLoopbackSession, type LoopbackSession } from "../test-support/loopback.js";

// A tool whose install and workload load leave a trace on the host (in the execution's work
// dir, which deleting the session removes), counted by its run.
const RELOADS = `id: reloads
tool_name: reloads
parser: keyvalue
timeout: {prepare: 60, run: 60}
scripts:
  check: test -e "$HOME/.benchwright/$BW_EXECUTION_ID/reloads/tool"
  install: |
    mkdir -p "$HOME/.benchwright/$BW_EXECUTION_ID/reloads"
    echo installed >> "$HOME/.benchwright/$BW_EXECUTION_ID/reloads/installs"
    touch "$HOME/.benchwright/$BW_EXECUTION_ID/reloads/tool"
workloads:
  - id: count
    categories: [test]
    scripts:
      prepare: echo loaded >> "$HOME/.benchwright/$BW_EXECUTION_ID/reloads/loads"
      run: |
        d="$HOME/.benchwright/$BW_EXECUTION_ID/reloads"
        echo "BW_METRIC installs $(wc -l < "$d/installs") n"
        echo "BW_METRIC loads $(wc -l < "$d/loads") n"
        # The tool goes missing: the next prepare must install it again.
        rm "$d/tool"
`;

// The Benchmarking Suite let a client prepare an execution again after running it (its
// clients do, to reload a workload's data); here that is a new attempt of the prepare step,
// on an existing host that is the harness's sshd.
describe("prepare again after a run", () => {
  let loop: LoopbackSession;
  let api: LoopbackSession["api"];
  let sessionId: string;

  beforeAll(async () => {
    loop = await openLoopbackSession((f) => writeFileSync(join(f.configDir, "benchmarks", "reloads.yaml"), RELOADS));
    ({ api, sessionId } = loop);
  }, 60_000);

  afterAll(async () => {
    await loop?.close();
  });

  const metric = (exec: { metrics: Array<{ name: string; value: number }> }, name: string) => exec.metrics.find((m) => m.name === name)?.value;

  it("re-installs and reloads as a new attempt, shown at its step resource, and runs again from it", async () => {
    const id = (await api.post(`/api/v1/sessions/${sessionId}/executions/`).send({ tool: "reloads", workload: "count" }).expect(200)).body.id;
    await api.post(`/api/v1/executions/${id}/prepare`).expect(200);
    await api.post(`/api/v1/executions/${id}/run`).expect(200);
    let exec = (await api.get(`/api/v1/executions/${id}`).expect(200)).body;
    expect(exec.state).toBe("completed");
    expect([metric(exec, "installs"), metric(exec, "loads")]).toEqual([1, 1]);

    // Prepare after the run: accepted, as attempt 2 of the step.
    const again = await api.post(`/api/v1/executions/${id}/prepare`).set("Prefer", "respond-async").expect(202);
    expect(again.headers.location).toBe(`/api/v1/executions/${id}/steps/prepare/2`);
    expect(again.body).toMatchObject({ execution_id: id, step: "prepare", attempt: 2 });
    expect(await followStep(api, again.headers.location)).toMatchObject({ step: "prepare", attempt: 2, state: "succeeded", exit_code: 0 });
    // Attempt 1 is still there as it was.
    expect((await api.get(`/api/v1/executions/${id}/steps/prepare/1`).expect(200)).body).toMatchObject({ attempt: 1, state: "succeeded" });
    expect((await api.get(`/api/v1/executions/${id}`).expect(200)).body.state).toBe("prepared");
    const log = await api.get(`/api/v1/executions/${id}/logs?step=prepare&attempt=2`).expect(200);
    expect(log.text).toContain("installing reloads");

    // And a run after it sees the tool installed again and the workload loaded again.
    await api.post(`/api/v1/executions/${id}/run`).expect(200);
    exec = (await api.get(`/api/v1/executions/${id}`).expect(200)).body;
    expect(exec.state).toBe("completed");
    expect([metric(exec, "installs"), metric(exec, "loads")]).toEqual([2, 2]);
    expect(exec.steps.map((s: { step: string; attempt: number }) => `${s.step}/${s.attempt}`).sort()).toEqual(["prepare/1", "prepare/2", "run/1", "run/2"]);

    // Prepared (not yet run) may be prepared once more too.
    await api.post(`/api/v1/executions/${id}/prepare`).expect(200);
    expect((await api.get(`/api/v1/executions/${id}/steps/prepare/3`).expect(200)).body).toMatchObject({ state: "succeeded" });
  }, 120_000);

  it("still refuses a prepare while a run is under way", async () => {
    const id = (
      await api
        .post(`/api/v1/sessions/${sessionId}/executions/`)
        .send({ tool: "idle", workload: "idle5", params: { seconds: 3 } })
        .expect(200)
    ).body.id;
    await api.post(`/api/v1/executions/${id}/prepare`).expect(200);
    // Three seconds of sleep (not the default five): still under way when the prepare comes, sent at once.
    const running = await api.post(`/api/v1/executions/${id}/run`).set("Prefer", "respond-async").expect(202);
    const refused = await api.post(`/api/v1/executions/${id}/prepare`).expect(409);
    expect(refused.body).toMatchObject({ code: "wrong_state", state: "running" });
    expect((await followStep(api, running.headers.location)).state).toBe("succeeded");
  }, 60_000);
});
