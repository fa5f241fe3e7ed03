import { execFileSync } from "node:child_process";
import { startSshd, type SshdHarness } from "@benchwright/testing";
import { secretForms } from "@benchwright/engine";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropDefinition, openFixture, type Fixture } from "../test-support/fixture.js";
import { storeSnapshot } from "@benchwright/engine/test-access";

// A tool that echoes the session's own credential, in another escaping, as it fails: the
// failure's problem, the execution and the step attempt must not carry it in any form.
describe("a failing step that prints the session's credential", () => {
  let sshd: SshdHarness;
  let fx: Fixture;
  let api: ReturnType<typeof request>;

  beforeAll(async () => {
    sshd = await startSshd();
    fx = await openFixture();
    // The key file of the harness is on this very machine: the step prints one of its lines
    // base64-encoded and the whole key Python-repr-escaped (backslashes doubled).
    dropDefinition(fx.configDir, {
      id: "leaky",
      workload: "echo_key",
      run: [
        `line=$(sed -n 2p ${sshd.privateKeyPath})`,
        `printf '%s\\n' "$line" | base64 -w0; echo`,
        `python3 -c 'import sys; print(repr(open(sys.argv[1]).read()))' ${sshd.privateKeyPath}`,
        "exit 7",
      ].join("\n"),
    });
    api = request(fx.app);
  }, 60_000);
  afterAll(async () => {
    await fx?.close();
    await sshd?.stop();
  });

  it("masks it in the 502, the execution and the step attempt", async () => {
    const session = await api
      .post("/api/v1/sessions/")
      .send({
        config: {
          provider: { class: "existing-vm", name: "lab" },
          vms: { host: sshd.host, port: sshd.port, vm_user: sshd.username, ssh_private_key: sshd.privateKey },
        },
      })
      .expect(200);
    const id = (await api.post(`/api/v1/sessions/${session.body.id}/executions/`).send({ tool: "leaky", workload: "echo_key" }).expect(200)).body.id;
    await api.post(`/api/v1/executions/${id}/prepare`).expect(200);
    const failed = await api.post(`/api/v1/executions/${id}/run`).expect(502);
    expect(failed.body).toMatchObject({ code: "step_failed", exit_code: 7 });
    // The tool really printed the credential (so the test can fail): the log has stars of the same length in its place.
    const keyLine = sshd.privateKey.split("\n")[1];
    const printedB64 = execFileSync("bash", ["-c", `printf '%s\\n' '${keyLine}' | base64 -w0`], { encoding: "utf8" });
    const log = (await api.get(`/api/v1/executions/${id}/logs?step=run`).expect(200)).text;
    expect(log.split("\n")[0]).toMatch(new RegExp(`^\\*{${printedB64.length - 4},}.{0,4}$`));
    expect(log.split("\n")[0]).toHaveLength(printedB64.length);
    expect(log).toMatch(/^'\*{100,}\\n'$/m);
    expect(failed.body.output_tail).toContain("***");
    // It printed them on stdout: that stream's own tail is masked too.
    expect(failed.body.stdout).toContain("***");

    const answers = [
      JSON.stringify(failed.body),
      JSON.stringify((await api.get(`/api/v1/executions/${id}`).expect(200)).body),
      JSON.stringify((await api.get(`/api/v1/executions/${id}/steps/run/1`).expect(200)).body),
      JSON.stringify(await storeSnapshot(fx.engine)),
      log,
    ];
    const forms = [
      ...secretForms(sshd.privateKey),
      ...sshd.privateKey
        .split("\n")
        .filter((l) => l.length >= 16 && !l.startsWith("-----"))
        .flatMap(secretForms),
      printedB64.trim(),
    ];
    for (const text of answers) for (const form of forms) expect(text).not.toContain(form);
  }, 60_000);
});
