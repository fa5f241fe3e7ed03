import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startOpenStackDouble, startSshd, type OpenStackDouble, type SshdHarness } from "@benchwright/testing";
import request from "supertest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";

// A provider configuration for OpenStack as the Benchmarking Suite's users wrote it
// (benchsuite-stdlib's data/providers/openstack.conf.example): network, security group,
// floating IP and connection retries in the provider section, post_create_script and
// working_dir per service type, no tenant. Stored and inline, each key must take effect on
// what the OpenStack double is asked for and on the machine (the harness's real sshd).

let sshd: SshdHarness;
let double: OpenStackDouble;
let fx: Fixture;
let api: ReturnType<typeof request>;
let scratch: string;
const everything: string[] = [];

const seen = (res: request.Response) => {
  everything.push(res.text ?? "", JSON.stringify(res.headers));
  return res;
};

/** Creation answers 200 as the ancestor did (another change of this issue) or 201 as before. */
function created(res: request.Response): string {
  seen(res);
  expect([200, 201], res.text).toContain(res.status);
  return res.body.id;
}

beforeAll(async () => {
  sshd = await startSshd();
  // The project is named like the user: the ancestor's default tenant is access_id.
  double = await startOpenStackDouble({ sshHost: sshd.host, privateKey: sshd.privateKey, project: "bench-user", username: "bench-user" });
  // No SSH knobs here: the configurations' own retry keys drive the wait for SSH.
  fx = await openFixture({
    engine: { outbound: { allowPrivate: true }, providers: { cloud: { sshPort: sshd.port, pollIntervalMs: 5, stateTimeoutMs: 5000 } } },
  });
  api = request(fx.app);
}, 60_000);

afterAll(async () => {
  everything.push(...(fx?.logs ?? []));
  await fx?.close();
  await double?.stop();
  await sshd?.stop();
});

beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), "bw-os-ancestor-"));
  return () => rmSync(scratch, { recursive: true, force: true });
});

const marker = () => join(scratch, "post-create.log");
const workingDir = () => join(scratch, "work");
/** The script leaves a line per run on "the machine" (the sshd runs on this host, as this user). */
const postCreateLines = () => [`echo "post-create as $(id -un)" >> '${marker()}'`, `mkdir -p '${join(scratch, "made-by-post-create")}'`];

function iniFile(): string {
  return [
    "[provider]",
    "class = benchsuite.stdlib.provider.libcloud.LibcloudComputeProvider",
    "name = ote-testbed",
    "driver = openstack",
    `access_id = ${double.username}`,
    `secret_key = ${double.password}`,
    `auth_url = ${double.authUrl.replace(/\/v3$/, "/")}`,
    "region = RegionOne",
    "auth_version = 3.x_password",
    "security_group = ssh",
    "network = lab",
    "benchsuite.openstack.no_floating_ip = true",
    "new_vm.connection_retry_period = 1",
    "new_vm.connection_retry_times = 10",
    "",
    "[ubuntu_small]",
    "image = ubuntu-22.04",
    "size = m1.small",
    `vm_user = ${sshd.username}`,
    "platform = debian_12",
    `working_dir = ${workingDir()}`,
    "post_create_script =",
    ...postCreateLines().map((line) => `    ${line}`),
    "",
  ].join("\n");
}

function inline(service: Record<string, unknown> = {}, provider: Record<string, unknown> = {}) {
  return {
    config: {
      provider: {
        class: "benchsuite.stdlib.provider.libcloud.LibcloudComputeProvider",
        name: "ote-inline",
        driver: "openstack",
        access_id: double.username,
        secret_key: double.password,
        auth_url: double.authUrl,
        auth_version: "3.x_password",
        security_group: "ssh",
        network: "lab",
        "benchsuite.openstack.no_floating_ip": true,
        "new_vm.connection_retry_period": 1,
        "new_vm.connection_retry_times": 10,
        ...provider,
      },
      ubuntu_small: {
        image: "ubuntu-22.04",
        size: "m1.small",
        vm_user: sshd.username,
        platform: "debian_12",
        working_dir: workingDir(),
        post_create_script: postCreateLines().join("\n"),
        ...service,
      },
    },
  };
}

/** Two executions prepared (the machines are asked for at each step), one run, then the session deleted. */
async function prepareTwiceAndRun(sessionId: string): Promise<string[]> {
  const execs: string[] = [];
  for (let i = 0; i < 2; i++) {
    const exec = created(await api.post(`/api/v1/sessions/${sessionId}/executions/`).send({ tool: "idle", workload: "idle0" }));
    const prepared = seen(await api.post(`/api/v1/executions/${exec}/prepare`));
    expect(prepared.status, prepared.text).toBe(200);
    execs.push(exec);
  }
  const ran = seen(await api.post(`/api/v1/executions/${execs[0]}/run`));
  expect(ran.status, ran.text).toBe(200);
  return execs;
}

function expectEachKeyTookEffect(execs: string[]): void {
  const inv = double.inventory();
  expect(inv.servers).toHaveLength(1);
  expect(inv.servers[0].network).toBe("lab");
  expect(inv.servers[0].securityGroups).toEqual(["ssh"]);
  expect(inv.floatingIps).toEqual([]);
  // Once on the new machine, though the machines were asked for at every prepare and run.
  expect(readFileSync(marker(), "utf8")).toBe(`post-create as ${sshd.username}\n`);
  expect(existsSync(join(scratch, "made-by-post-create"))).toBe(true);
  for (const exec of execs) expect(existsSync(join(workingDir(), ".benchwright", exec)), exec).toBe(true);
}

describe("OpenStack in the Benchmarking Suite's spelling", () => {
  it("stored as the ancestor's INI file (Form A): every key takes effect", async () => {
    writeFileSync(join(fx.configDir, "providers", "ote-testbed.conf"), iniFile());
    const id = created(await api.post("/api/v1/sessions/").send({ provider: "ote-testbed", service: "ubuntu_small" }));
    const execs = await prepareTwiceAndRun(id);
    expectEachKeyTookEffect(execs);
    seen(await api.delete(`/api/v1/sessions/${id}`).expect(204));
    expect(Object.values(double.inventory()).flat()).toEqual([]);
  }, 120_000);

  it("inline (Form B), at the same levels: every key takes effect", async () => {
    const id = created(await api.post("/api/v1/sessions/").send(inline()));
    const execs = await prepareTwiceAndRun(id);
    expectEachKeyTookEffect(execs);
    seen(await api.delete(`/api/v1/sessions/${id}`).expect(204));
    expect(Object.values(double.inventory()).flat()).toEqual([]);
  }, 120_000);

  it("takes a configuration without tenant or vm_user, as the ancestor did", async () => {
    const config = inline();
    delete (config.config.ubuntu_small as Record<string, unknown>).vm_user;
    const id = created(await api.post("/api/v1/sessions/").send(config));
    seen(await api.delete(`/api/v1/sessions/${id}`).expect(204));
  });

  it("fails the prepare clearly when post_create_script fails, and leaves nothing behind", async () => {
    const id = created(await api.post("/api/v1/sessions/").send(inline({ post_create_script: "echo 'no such package: benchmark-deps' >&2\nexit 4" })));
    const exec = created(await api.post(`/api/v1/sessions/${id}/executions/`).send({ tool: "idle", workload: "idle0" }));
    const failed = seen(await api.post(`/api/v1/executions/${exec}/prepare`));
    expect(failed.status, failed.text).toBe(502);
    expect(failed.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(failed.body).toMatchObject({ code: "provider_failed", state: "prepare_failed" });
    expect(failed.body.detail).toMatch(/post_create_script on \S+ exited with code 4; its output ended with: no such package: benchmark-deps/);
    expect(Object.values(double.inventory()).flat()).toEqual([]);
    seen(await api.delete(`/api/v1/sessions/${id}`).expect(204));
  }, 60_000);

  it("still refuses, with a 400 that names it, a key neither we nor the ancestor know", async () => {
    for (const [config, path] of [
      [inline({}, { "benchsuite.openstack.floating_pool": "ext" }), "/body/config/provider/benchsuite.openstack.floating_pool"],
      [inline({ post_create: "true" }), "/body/config/ubuntu_small/post_create"],
    ] as const) {
      const res = seen(await api.post("/api/v1/sessions/").send(config));
      expect(res.status, res.text).toBe(400);
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(res.body.errors).toContainEqual({ path, message: "must NOT have additional properties" });
    }
    const bad = seen(await api.post("/api/v1/sessions/").send(inline({}, { "new_vm.connection_retry_times": "often" })));
    expect(bad.status, bad.text).toBe(400);
    expect(bad.text).toContain("new_vm.connection_retry_times");
    expect((await api.get("/api/v1/sessions/")).body).toEqual([]);
  });

  it("never shows a credential in a response or a log line", () => {
    everything.push(...fx.logs);
    const text = everything.join("\n");
    expect(everything.length).toBeGreaterThan(10);
    for (const secret of [double.password, ...double.tokens(), sshd.privateKey.split("\n")[1]]) {
      expect(text.includes(secret), "a credential leaked").toBe(false);
    }
  });
});
