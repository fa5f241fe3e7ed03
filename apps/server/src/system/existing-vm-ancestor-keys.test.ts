import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createPasswordUser, startSshd, type PasswordUser, type SshdHarness } from "@benchwright/testing";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropDefinition, openFixture, type Fixture } from "../test-support/fixture.js";
import { storeSnapshot } from "@benchwright/engine/test-access";

const ANCESTOR_CLASS = "benchsuite.stdlib.provider.existing_vm.ExistingVMProvider";

// Existing hosts written as the Benchmarking Suite wrote them (its existing_vm.conf.example and
// ExistingVMProvider: `ip_address`, `user`, and `ssh_private_key`, `key_path` or `password`), in
// its INI provider files (Form A) and inline (Form B), on the harness's sshd. Password logins
// need a system account (sshd checks passwords against it): the test makes a throwaway one.
describe("existing hosts in the Benchmarking Suite's keys", () => {
  let sshd: SshdHarness;
  let user: PasswordUser;
  let fx: Fixture;
  let api: ReturnType<typeof request>;
  const sessions: string[] = [];
  /** Every response the server sent, to look for secrets in. */
  const seen: string[] = [];
  const see = (res: request.Response) => {
    seen.push(`${res.status} ${JSON.stringify(res.headers)} ${res.text}`);
    return res;
  };

  beforeAll(async () => {
    user = await createPasswordUser();
    sshd = await startSshd({ passwordAuthentication: true });
    fx = await openFixture();
    const providers = join(fx.configDir, "providers");
    const ini = (sections: Record<string, string>) =>
      `# as in the Benchmarking Suite's existing_vm.conf.example\n[provider]\nclass = ${ANCESTOR_CLASS}\n\n[my_vm1]\n` +
      Object.entries(sections)
        .map(([k, v]) => `${k} = ${v}`)
        .join("\n") +
      "\n";
    writeFileSync(
      join(providers, "vm_password.conf"),
      ini({ ip_address: sshd.host, port: String(sshd.port), user: user.username, password: user.password, platform: "ubuntu" }),
    );
    writeFileSync(
      join(providers, "vm_keyfile.conf"),
      ini({ ip_address: sshd.host, port: String(sshd.port), user: sshd.username, key_path: sshd.privateKeyPath, platform: "ubuntu" }),
    );
    // configparser's continuation lines: how an INI file holds a key's text.
    const indented = sshd.privateKey.trim().split("\n").join("\n    ");
    writeFileSync(join(providers, "vm_keytext.conf"), ini({ ip_address: sshd.host, port: String(sshd.port), user: sshd.username, ssh_private_key: indented }));
    api = request(fx.app);
  }, 60_000);

  afterAll(async () => {
    for (const id of sessions) await api?.delete(`/api/v1/sessions/${id}`);
    await fx?.close();
    await sshd?.stop();
    await user?.remove();
  }, 60_000);

  async function session(body: unknown): Promise<string> {
    const res = see(await api.post("/api/v1/sessions/").send(body as object));
    expect(res.status, res.text).toBe(200);
    sessions.push(res.body.id);
    return res.body.id;
  }

  async function prepareAndRun(sessionId: string): Promise<{ id: string; state: string; exec_env: { vms: Array<{ ip: string }> } }> {
    const id = see(await api.post(`/api/v1/sessions/${sessionId}/executions/`).send({ tool: "idle", workload: "idle0" }).expect(200)).body.id;
    const prepared = see(await api.post(`/api/v1/executions/${id}/prepare`));
    expect(prepared.status, prepared.text).toBe(200);
    see(await api.post(`/api/v1/executions/${id}/run`).expect(200));
    return see(await api.get(`/api/v1/executions/${id}`).expect(200)).body;
  }

  it.each([
    ["a password", "vm_password", () => user.username],
    ["key_path", "vm_keyfile", () => sshd.username],
    ["ssh_private_key on continuation lines", "vm_keytext", () => sshd.username],
  ])(
    "runs on a stored INI host given by ip_address and user with %s (Form A)",
    async (_name, provider, login) => {
      const exec = await prepareAndRun(await session({ provider, service: "my_vm1" }));
      expect(exec.state).toBe("completed");
      expect(exec.exec_env.vms[0].ip).toBe("127.0.0.1");
      // It ran as that user: the work dir is in that user's home.
      const home = login() === user.username ? `/home/${user.username}` : process.env.HOME!;
      expect(existsSync(join(home, ".benchwright", exec.id))).toBe(true);
    },
    60_000,
  );

  it("runs on an inline host given by ip_address, user and password (Form B), in the ancestor's class name", async () => {
    const exec = await prepareAndRun(
      await session({
        config: {
          provider: { class: ANCESTOR_CLASS, name: "lab" },
          my_vm1: { ip_address: sshd.host, port: sshd.port, user: user.username, password: user.password },
        },
      }),
    );
    expect(exec.state).toBe("completed");
    expect(existsSync(join(`/home/${user.username}`, ".benchwright", exec.id))).toBe(true);
  }, 60_000);

  it("runs on inline hosts listed with the ancestor's keys, a password given once for all", async () => {
    const exec = await prepareAndRun(
      await session({
        config: {
          provider: { class: "existing-vm", name: "lab" },
          vms: { user: user.username, password: user.password, hosts: [{ ip_address: sshd.host, port: sshd.port }] },
        },
      }),
    );
    expect(exec.state).toBe("completed");
  }, 60_000);

  it("refuses key_path inline: an API client may not name the server's files", async () => {
    const before = see(await api.get("/api/v1/sessions/").expect(200)).body.length;
    const res = see(
      await api
        .post("/api/v1/sessions/")
        .send({
          config: {
            provider: { class: ANCESTOR_CLASS, name: "lab" },
            my_vm1: { ip_address: sshd.host, port: sshd.port, user: sshd.username, key_path: sshd.privateKeyPath },
          },
        })
        .expect(400),
    );
    expect(res.body).toMatchObject({
      code: "invalid_configuration",
      errors: [expect.objectContaining({ path: "/body/config/my_vm1/key_path" })],
    });
    expect(see(await api.get("/api/v1/sessions/").expect(200)).body.length).toBe(before);
  });

  it("refuses a host without a credential, naming the three it takes", async () => {
    const res = see(
      await api
        .post("/api/v1/sessions/")
        .send({ config: { provider: { class: ANCESTOR_CLASS }, my_vm1: { ip_address: sshd.host, user: user.username } } })
        .expect(400),
    );
    expect(res.body.detail).toContain("ssh_private_key, key_path or password is required");
  });

  it("never serves a wrong password on the right one's pooled connection to the same host and user", async () => {
    const right = await session({
      config: {
        provider: { class: ANCESTOR_CLASS },
        vm: { ip_address: sshd.host, port: sshd.port, user: user.username, password: user.password },
      },
    });
    await prepareAndRun(right);
    // Same host, port and user; the right password's connection is open and idle in the pool.
    const wrong = await session({
      config: {
        provider: { class: ANCESTOR_CLASS },
        vm: { ip_address: sshd.host, port: sshd.port, user: user.username, password: `${user.password}-wrong` },
      },
    });
    const id = see(await api.post(`/api/v1/sessions/${wrong}/executions/`).send({ tool: "idle", workload: "idle0" }).expect(200)).body.id;
    const res = see(await api.post(`/api/v1/executions/${id}/prepare`));
    expect(res.status, res.text).toBe(502);
    expect(res.body.detail).toMatch(/authentication/i);
    expect(see(await api.get(`/api/v1/executions/${id}`).expect(200)).body.state).toBe("prepare_failed");
    // Nothing ran there under the wrong password.
    expect(existsSync(join(`/home/${user.username}`, ".benchwright", id))).toBe(false);
    // The right one still runs.
    expect((await prepareAndRun(right)).state).toBe("completed");
  }, 60_000);

  it("masks the session's password in a step's log, as printed and in base64, with as many stars", async () => {
    const basic = Buffer.from(`${user.username}:${user.password}`).toString("base64");
    dropDefinition(fx.configDir, {
      id: "telltale",
      workload: "password",
      run: [
        `echo "plain ${user.password}"`,
        `echo "base64 $(printf %s '${user.password}' | base64 -w0)"`,
        `echo "basic ${basic}"`,
        "echo 'BW_METRIC told 1 count'",
      ].join("\n"),
    });
    const sessionId = await session({ provider: "vm_password", service: "my_vm1" });
    const id = see(await api.post(`/api/v1/sessions/${sessionId}/executions/`).send({ tool: "telltale", workload: "password" }).expect(200)).body.id;
    see(await api.post(`/api/v1/executions/${id}/prepare`).expect(200));
    see(await api.post(`/api/v1/executions/${id}/run`).expect(200));
    const log = see(await api.get(`/api/v1/executions/${id}/logs?step=run`).expect(200)).text;
    const b64 = Buffer.from(user.password).toString("base64");
    expect(log).toContain(`plain ${"*".repeat(user.password.length)}\n`);
    expect(log).toContain(`base64 ${"*".repeat(b64.length)}\n`);
    expect(log).toMatch(new RegExp(`^basic ${basic.slice(0, 4)}.*\\*{16,}`, "m"));
    expect(log.split("\n").find((l) => l.startsWith("basic "))).toHaveLength(`basic ${basic}`.length);
    for (const form of [user.password, b64, basic]) expect(log).not.toContain(form);
  }, 60_000);

  it("never shows a password in an answer, a log line or the database", async () => {
    expect(seen.length).toBeGreaterThan(10);
    const logs = fx.logs.join("\n");
    expect(logs.length).toBeGreaterThan(0);
    const database = JSON.stringify(await storeSnapshot(fx.engine));
    for (const secret of [user.password, `${user.password}-wrong`]) {
      for (const text of [...seen, logs, database]) expect(text.includes(secret)).toBe(false);
    }
  });
});
