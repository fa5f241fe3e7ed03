import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { startSshd, type SshdHarness } from "@benchwright/testing";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";
import { queryDatabase } from "@benchwright/engine/test-access";

// Issue 26's acceptance 4, through the REST API, on an existing-vm session whose "VM" is a
// private OpenSSH server on loopback: every step really runs over SSH, and sysbench is really
// installed (apt, when missing) and run. Each run's record carries what produced its figures;
// a comparison of two runs whose recorded sysbench versions differ (one written into the store,
// as the issue allows) lists both sides.
describe("the provenance of a sysbench run, end to end", () => {
  let sshd: SshdHarness;
  let fx: Fixture;
  let api: ReturnType<typeof request>;
  let sessionId: string;

  beforeAll(async () => {
    sshd = await startSshd();
    fx = await openFixture();
    api = request(fx.app);
    const res = await api
      .post("/api/v1/sessions/")
      .send({
        config: {
          provider: { class: "benchsuite.stdlib.provider.existing_vm.ExistingVMProvider", name: "loopback" },
          vms: { host: sshd.host, port: sshd.port, vm_user: sshd.username, ssh_private_key: sshd.privateKey },
        },
      })
      .expect(200);
    sessionId = res.body.id;
  }, 60_000);

  afterAll(async () => {
    await fx?.close();
    await sshd?.stop();
  });

  const params = { threads: "1", events: 200 };

  async function preparedAndRun(): Promise<string> {
    const { body } = await api.post(`/api/v1/sessions/${sessionId}/executions/`).send({ tool: "sysbench", workload: "cpu_10000", params }).expect(200);
    const prepared = await api.post(`/api/v1/executions/${body.id}/prepare`);
    expect(prepared.status, JSON.stringify(prepared.body)).toBe(200);
    const ran = await api.post(`/api/v1/executions/${body.id}/run`);
    expect(ran.status, JSON.stringify(ran.body)).toBe(200);
    return body.id;
  }

  const compare = async (ids: string[]) =>
    (
      await api
        .get("/api/v1/executions/compare")
        .query({ ids: ids.join(",") })
        .expect(200)
    ).body;

  it("records on the run attempt the package as installed, the definition's and the script's digests, the params and Benchwright's version", async () => {
    const a = await preparedAndRun();
    const attempt = (await api.get(`/api/v1/executions/${a}/steps/run/1`).expect(200)).body;
    const exec = (await api.get(`/api/v1/executions/${a}`).expect(200)).body;
    const vm = exec.exec_env.vms[0];
    // As dpkg has it on this machine, which is the "VM".
    const installed = execFileSync("dpkg-query", ["-W", "-f=${Version}", "sysbench"], { encoding: "utf8" });
    // The script the host ran, byte for byte: the step dir keeps it.
    const stepScript = readFileSync(join(homedir(), ".benchwright", a, "run-1", "step.sh"));
    const engineVersion = JSON.parse(readFileSync(new URL("../../../../packages/engine/package.json", import.meta.url), "utf8")).version;
    expect(attempt.provenance).toEqual({
      tool: "sysbench",
      workload: "cpu_10000",
      packages: [{ machine: vm.id, name: "sysbench", version: installed }],
      definition_digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      params,
      scripts: [{ machine: vm.id, digest: `sha256:${createHash("sha256").update(stepScript).digest("hex")}` }],
      benchwright_version: engineVersion,
    });
    // The execution shows its last successful run's.
    expect(exec.provenance).toEqual(attempt.provenance);
    // The machine's facts: an existing host is known by its OS release; it has no cloud's type or zone.
    expect(vm.facts.image).toBe(vm.facts.os_release);
    expect(vm.facts.image).toMatch(/\S/);
    expect(vm.facts).not.toHaveProperty("instance_type");
    expect(vm.facts).not.toHaveProperty("zone");
    // A prepare is not a run: it records none.
    expect((await api.get(`/api/v1/executions/${a}/steps/prepare/1`).expect(200)).body).not.toHaveProperty("provenance");
  }, 900_000);

  it("flags, in the comparison, two sysbench runs whose recorded package versions differ", async () => {
    const [a, b] = [await preparedAndRun(), await preparedAndRun()];
    const same = await compare([a, b]);
    expect(same.tool_versions_differ).toEqual([]);
    // Both ran the same definition and script, and say so.
    expect(same.executions[1].provenance.definition_digest).toBe(same.executions[0].provenance.definition_digest);
    expect(same.executions[1].provenance.scripts[0].digest).toBe(same.executions[0].provenance.scripts[0].digest);

    // The second run's recorded version, written in the store (as if its host had another build).
    const installed = same.executions[0].provenance.packages[0].version;
    await queryDatabase(
      fx.engine,
      `UPDATE steps SET provenance = jsonb_set(provenance, '{packages,0,version}', to_jsonb($2::text))
        WHERE execution_id = $1 AND step = 'run' AND attempt = 1`,
      [b, "1.0.19-bw-test"],
    );
    const differ = await compare([a, b]);
    expect(differ.tool_versions_differ).toEqual([
      { execution_id: a, tool: "sysbench", workload: "cpu_10000", version: `sysbench ${installed}` },
      { execution_id: b, tool: "sysbench", workload: "cpu_10000", version: "sysbench 1.0.19-bw-test" },
    ]);
    expect(differ.executions[1].provenance.packages[0].version).toBe("1.0.19-bw-test");
    // The figures are compared all the same: the flag is a warning.
    expect(differ.metrics.length).toBeGreaterThan(0);
  }, 900_000);
});
