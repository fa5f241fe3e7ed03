import { describe, expect, it } from "vitest";
import { parseProviderConfig } from "../config/parse-provider-config.js";
import { ExistingVmProvider } from "./existing-vm.js";

const config = (service: Record<string, unknown>) => {
  const parsed = parseProviderConfig({
    name: "lab",
    serviceType: "vms",
    providerClass: "existing-vm",
    provider: { class: "existing-vm" },
    service,
  });
  if (parsed.class !== "existing-vm") throw new Error(parsed.class);
  return parsed;
};

// The engine is called without the HTTP layer's schema too: a malformed section is a
// configuration problem, never a TypeError (a 500).
describe("existing-vm configuration checks", () => {
  it.each([
    ["a string", "h1,h2"],
    ["an object", { host: "h" }],
    ["a list with a null", [null]],
    ["a list of strings", ["h1"]],
  ])("refuses hosts given as %s", (_name, hosts) => {
    expect(() => config({ vm_user: "u", ssh_private_key: "x", hosts })).toThrow(
      expect.objectContaining({
        code: "invalid_configuration",
        detail: expect.stringMatching(/vms\.hosts .*: must be a list of \{host, \.\.\.\} entries/),
      }),
    );
  });

  it("lists every missing field of every host", () => {
    expect(() => config({ hosts: [{ host: "a" }, { host: "b", vm_user: "u" }] })).toThrow(
      /vms\.hosts\[0\]\.vm_user is missing: .*vms\.hosts\[0\] has no credential: .*vms\.hosts\[1\] has no credential: ssh_private_key, key_path or password is required/,
    );
  });
});

// The Benchmarking Suite's ExistingVMProvider read `ip_address`, `user`, and a key, a key file or a password.
describe("existing-vm with the Benchmarking Suite's names", () => {
  const machinesOf = (service: Record<string, unknown>) => new ExistingVmProvider(config(service)).ensureMachines();

  it("reads ip_address and user as host and vm_user, in the section and in hosts", async () => {
    const [one] = await machinesOf({ ip_address: "192.0.2.7", user: "ubuntu", password: "s3cret-pw" });
    expect(one).toMatchObject({
      id: "192.0.2.7",
      ip: "192.0.2.7",
      ssh: { host: "192.0.2.7", port: 22, username: "ubuntu", password: "s3cret-pw" },
    });
    expect(one.ssh).not.toHaveProperty("privateKey");
    const listed = await machinesOf({
      user: "ubuntu",
      password: "pw-all",
      hosts: [
        { ip_address: "192.0.2.8", port: 2222 },
        { host: "192.0.2.9", user: "root", password: "pw-own" },
      ],
    });
    expect(listed.map((m) => m.ssh)).toEqual([
      { host: "192.0.2.8", port: 2222, username: "ubuntu", password: "pw-all" },
      { host: "192.0.2.9", port: 22, username: "root", password: "pw-own" },
    ]);
  });

  it("takes a key and a password together (ssh2 offers both)", async () => {
    const key = "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n";
    const [m] = await machinesOf({ ip_address: "192.0.2.7", user: "u", ssh_private_key: key, password: "pw-too" });
    expect(m.ssh).toEqual({ host: "192.0.2.7", port: 22, username: "u", privateKey: key, password: "pw-too" });
  });

  it("refuses both spellings of a setting with different values, and an empty password", () => {
    expect(() => config({ host: "a", ip_address: "b", user: "u", vm_user: "v", password: "pw12" })).toThrow(
      /vms\.ip_address differs from host: host and ip_address name the same setting: give one, or both alike; vms\.user differs from vm_user/,
    );
    expect(() => config({ host: "a", vm_user: "u", password: "" })).toThrow(/vms\.password is empty: must be a non-empty string/);
    // The same value twice is no conflict.
    expect(() => config({ host: "a", ip_address: "a", user: "u", password: "pw12" })).not.toThrow();
  });

  it("reads a key file when the machines are asked for, and says which one it cannot read", async () => {
    const provider = new ExistingVmProvider(config({ host: "a", vm_user: "u", key_path: "/nonexistent/key" }));
    await expect(provider.ensureMachines()).rejects.toMatchObject({
      code: "invalid_configuration",
      extras: {
        errors: [{ path: "/config/vms/key_path", message: "cannot be read for host a: must name a private key file the server can read" }],
      },
    });
  });
});
