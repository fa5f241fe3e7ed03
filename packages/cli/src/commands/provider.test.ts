import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../test-support/cli-process.js";
import { startTestServer, type TestServer } from "../test-support/server.js";

const KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----\n";

// Issue 38 point 3: benchwright provider push|ls|show, secrets read from a file or the environment.
describe("benchwright provider push|ls|show, against a real server", () => {
  let server: TestServer;
  let env: Record<string, string>;
  let dir: string;

  beforeAll(async () => {
    server = await startTestServer();
    env = { BENCHWRIGHT_URL: server.url, LAB_PASSWORD: "from-the-environment-1" };
    dir = mkdtempSync(join(tmpdir(), "bw-provider-"));
    writeFileSync(join(dir, "id_lab"), KEY);
    writeFileSync(
      join(dir, "lab.yaml"),
      [
        "provider: {class: existing-vm}",
        "vms:",
        "  hosts:",
        "    - {host: 192.0.2.10, vm_user: bench, ssh_private_key: {from_file: id_lab}}",
        "    - {host: 192.0.2.11, vm_user: bench, password: {from_env: LAB_PASSWORD}}",
      ].join("\n"),
    );
    writeFileSync(join(dir, "bad.yaml"), "provider: {class: existing-vm}\nvms: {hosts: [{port: 0}]}\n");
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("pushes a configuration whose secrets it read from a file and the environment, and never prints them", async () => {
    const pushed = await runCli(["provider", "push", join(dir, "lab.yaml")], env);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.stdout).toContain("Provider configuration lab stored, version 1");
    expect(pushed.stdout).toContain("/vms/hosts/0/ssh_private_key");
    const shown = await runCli(["provider", "show", "lab", "--json"], env);
    const view = JSON.parse(shown.stdout);
    expect(view.secrets_set).toEqual(["/vms/hosts/0/ssh_private_key", "/vms/hosts/1/password"]);
    expect(view.config.vms.hosts[1].password).toBe("***");
    const listed = await runCli(["provider", "ls"], env);
    expect(listed.stdout).toMatch(/lab\s.*existing-vm.*vms.*api.*1/);
    for (const out of [pushed, shown, listed]) {
      expect(out.stdout + out.stderr).not.toContain("from-the-environment-1");
      expect(out.stdout + out.stderr).not.toContain("b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ");
    }
  }, 60_000);

  it("exits with every problem of a configuration the server refuses", async () => {
    const { code, stderr } = await runCli(["provider", "push", join(dir, "bad.yaml")], env);
    expect(code).toBe(2);
    expect(stderr).toContain("vms.hosts[0].host");
    expect(stderr).toContain("vms.hosts[0].port");
  }, 60_000);

  it("refuses a secret the environment does not hold, sending nothing", async () => {
    const { code, stderr } = await runCli(["provider", "push", join(dir, "lab.yaml"), "--name", "other"], { BENCHWRIGHT_URL: server.url });
    expect(code).toBe(2);
    expect(stderr).toContain("LAB_PASSWORD");
    expect((await runCli(["provider", "show", "other"], env)).code).not.toBe(0);
  }, 60_000);
});
