import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BenchwrightError } from "../errors.js";
import type { ResolvedConfig } from "../model/resolved-config.js";
import { parseProviderConfig } from "./parse-provider-config.js";
import { loadProviderConfigs, resolveInline, resolveStored } from "./provider-config.js";

const KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\nAAAAAAAB\n-----END OPENSSH PRIVATE KEY-----\n";
const EXISTING_VM_CLASS = "benchsuite.stdlib.provider.existing_vm.ExistingVMProvider";
const LIBCLOUD_CLASS = "benchsuite.stdlib.provider.libcloud.LibcloudComputeProvider";

const inline = (config: Record<string, unknown>) => parseProviderConfig(resolveInline(config));

/** The error a configuration is refused with (the test fails if it is taken). */
function refusal(config: Record<string, unknown>): BenchwrightError {
  try {
    inline(config);
  } catch (e) {
    if (e instanceof BenchwrightError) return e;
    throw e;
  }
  throw new Error("the configuration was taken");
}

/** Stored configurations in a config dir, as the operator writes them. */
function stored(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), "bw-parse-"));
  mkdirSync(join(dir, "providers"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, "providers", name), text);
  return loadProviderConfigs(dir, (file, e) => {
    throw new Error(`${file}: ${e.message}`);
  });
}

describe("parseProviderConfig: each variant", () => {
  it("local: the platform, installing off unless a stored configuration allows it", () => {
    expect(inline({ provider: { class: "local" }, bench: { platform: "debian_12", step_timeout: 90 } })).toEqual({
      class: "local",
      name: "inline",
      serviceType: "bench",
      platform: "debian_12",
      allowInstall: false,
      stepTimeoutS: 90,
      secrets: [],
    });
    const [here] = stored({ "here.yaml": "provider:\n  class: local\nroot:\n  allow_install: true\n" });
    expect(parseProviderConfig(resolveStored([here], "here"))).toMatchObject({ class: "local", platform: "", allowInstall: true });
  });

  it("existing-vm: one host, or hosts inheriting the section's user, credentials, port and platform", () => {
    expect(inline({ provider: { class: "existing-vm", name: "lab" }, vms: { host: "10.0.0.1", vm_user: "u", ssh_private_key: KEY } })).toMatchObject({
      class: "existing-vm",
      name: "lab",
      allowInstall: true,
      hosts: [{ id: "10.0.0.1", host: "10.0.0.1", port: 22, vm_user: "u", platform: "", ssh_private_key: KEY }],
    });
    const many = inline({
      provider: { class: "existing-vm" },
      vms: {
        vm_user: "u",
        password: "pw-all",
        port: 2222,
        platform: "ubuntu",
        hosts: [{ host: "a" }, { host: "b", port: 22, vm_user: "root", name: "bee" }],
      },
    });
    expect(many).toMatchObject({
      hosts: [
        { id: "a_2222", host: "a", port: 2222, vm_user: "u", platform: "ubuntu", password: "pw-all" },
        { id: "bee", host: "b", port: 22, vm_user: "root", platform: "ubuntu", password: "pw-all" },
      ],
    });
  });

  it("cloud with its driver: ec2, openstack and gce, each with what it needs", () => {
    const ec2 = inline({
      provider: { class: "cloud", driver: "EC2", access_id: "AKIAEXAMPLE", secret_key: "s3cr3t-key", region: "eu-west-1" },
      vm: { image: "ami-1", size: "t3.micro", vm_user: "admin", ssh_port: 2222, ssh_timeout: 60 },
    });
    expect(ec2).toMatchObject({
      class: "cloud",
      driver: "ec2",
      region: "eu-west-1",
      image: "ami-1",
      vmUser: "admin",
      sshPort: 2222,
      sshTimeoutMs: 60_000,
      workRoot: "~/.benchwright",
    });
    expect(ec2.secrets).toEqual(expect.arrayContaining(["AKIAEXAMPLE", "s3cr3t-key"]));

    const gce = inline({
      provider: {
        class: "cloud",
        driver: "gce",
        access_id: "sa@p.iam.gserviceaccount.com",
        secret_key: "k3y-text",
        project: "p",
        region: "europe-west1-b",
      },
      vm: { image: "debian-12", size: "e2-small", vm_user: "u" },
    });
    expect(gce).toMatchObject({ driver: "gce", project: "p", region: "europe-west1-b" });

    const openstack = inline({
      provider: { class: "cloud", driver: "openstack", auth_url: "https://keystone:5000", access_id: "bench", secret_key: "pw-os" },
      vm: { image: "debian-12", size: "m1.small", platform: "ubuntu_22_04", working_dir: "bench" },
    });
    expect(openstack).toMatchObject({
      driver: "openstack",
      authUrl: "https://keystone:5000",
      tenant: "bench",
      domain: "Default",
      vmUser: "ubuntu",
      workRoot: "~/bench/.benchwright",
    });
  });
});

describe("parseProviderConfig: the Benchmarking Suite's spellings", () => {
  it("existing-vm: its class name, ip_address and user, in the section and in each host", () => {
    const one = inline({ provider: { class: EXISTING_VM_CLASS }, my_vm1: { ip_address: "192.0.2.7", user: "ubuntu", password: "pw-one" } });
    expect(one).toMatchObject({ class: "existing-vm", hosts: [{ host: "192.0.2.7", vm_user: "ubuntu", password: "pw-one" }] });
    const listed = inline({
      provider: { class: EXISTING_VM_CLASS },
      vms: { user: "ubuntu", password: "pw-all", hosts: [{ ip_address: "192.0.2.8" }, { host: "192.0.2.9", user: "root" }] },
    });
    expect(listed).toMatchObject({
      hosts: [
        { host: "192.0.2.8", vm_user: "ubuntu" },
        { host: "192.0.2.9", vm_user: "root" },
      ],
    });
  });

  it("existing-vm: an INI .conf file, whose values are all text", () => {
    const [lab] = stored({
      "lab.conf": `[provider]\nclass = ${EXISTING_VM_CLASS}\n\n[my_vm1]\nip_address = 192.0.2.7\nport = 2222\nuser = ubuntu\nkey_path = /keys/lab\nallow_install = no\nstep_timeout = 600\n`,
    });
    expect(parseProviderConfig(resolveStored([lab], "lab"))).toMatchObject({
      class: "existing-vm",
      allowInstall: false,
      stepTimeoutS: 600,
      hosts: [{ id: "192.0.2.7_2222", host: "192.0.2.7", port: 2222, vm_user: "ubuntu", key_path: "/keys/lab" }],
    });
  });

  it("cloud: the libcloud class name, its EC2 .conf file with an indented key", () => {
    const [aws] = stored({
      "aws.conf": `[provider]\nclass = ${LIBCLOUD_CLASS}\ndriver = ec2\naccess_id = AKIAEXAMPLE\nsecret_key = SECRETEXAMPLE\nregion = us-west-1\n\n[ubuntu_micro]\nimage = ami-73f7da13\nsize = t2.micro\nvm_user = ubuntu\nkey_name = bench-key\nssh_private_key = -----BEGIN OPENSSH PRIVATE KEY-----\n    b3BlbnNzaC1rZXktdjEAAAAA\n    AAAAAAAB\n    -----END OPENSSH PRIVATE KEY-----\n`,
    });
    const config = parseProviderConfig(resolveStored([aws], "aws"));
    expect(config).toMatchObject({ class: "cloud", driver: "ec2", keyName: "bench-key", sshPrivateKey: KEY });
    expect(config.secrets).toContain(KEY);
  });

  it("openstack: 3.x_password, the provider-level network, security group and no_floating_ip, the retry keys", () => {
    const config = inline({
      provider: {
        class: LIBCLOUD_CLASS,
        driver: "openstack",
        auth_url: "http://keystone:5000",
        auth_version: "3.x_password",
        access_id: "bench",
        secret_key: "pw-os",
        tenant: "bench-project",
        network: "lab",
        security_group: "ssh",
        "benchsuite.openstack.no_floating_ip": "true",
        "new_vm.connection_retry_times": "4",
      },
      ubuntu_small: { image: "ubuntu-22.04", size: "m1.small", post_create_script: "true" },
    });
    expect(config).toMatchObject({
      driver: "openstack",
      authVersion: "3.x_password",
      tenant: "bench-project",
      network: "lab",
      securityGroup: "ssh",
      noFloatingIp: true,
      vmUser: "ubuntu",
      sshAttempts: 4,
      sshPollIntervalMs: 30_000,
      sshTimeoutMs: Infinity,
      postCreateScript: "true",
    });
    // A service type's own settings win over the provider section's.
    const own = inline({
      provider: {
        class: LIBCLOUD_CLASS,
        driver: "openstack",
        auth_url: "http://k",
        access_id: "b",
        secret_key: "pw-os",
        network: "lab",
        "benchsuite.openstack.no_floating_ip": true,
      },
      vm: { image: "i", size: "s", network: "mine", no_floating_ip: false },
    });
    expect(own).toMatchObject({ network: "mine", noFloatingIp: false });
  });
});

describe("parseProviderConfig: after a restart", () => {
  it("reads a sealed configuration (JSON round trip) to the same value, and keeps refusing what an inline one may not name", () => {
    const resolved = resolveInline({
      provider: { class: "existing-vm" },
      vms: { host: "h", vm_user: "u", ssh_private_key: KEY.replace(/\n/g, "\\n") },
    });
    const sealed = JSON.parse(JSON.stringify(resolved)) as ResolvedConfig;
    expect(parseProviderConfig(sealed)).toEqual(parseProviderConfig(resolved));
    expect(() => parseProviderConfig({ ...sealed, service: { ...sealed.service, key_path: "/etc/shadow" } })).toThrow(/reach into the server/);
    // Sessions sealed before the origin was recorded read as stored ones.
    const { origin: _origin, ...older } = sealed;
    expect(parseProviderConfig({ ...older, service: { host: "h", vm_user: "u", key_path: "/k" } })).toMatchObject({
      hosts: [{ key_path: "/k" }],
    });
  });
});

describe("parseProviderConfig: errors name the field, what is wrong, and what is allowed", () => {
  it("a port out of range", () => {
    const e = refusal({ provider: { class: "existing-vm" }, vms: { host: "h", vm_user: "u", password: "pw12", port: 70000 } });
    expect(e.code).toBe("invalid_configuration");
    expect(e.status).toBe(400);
    expect(e.extras.errors).toEqual([{ path: "/config/vms/port", message: "is 70000: must be an integer from 1 to 65535" }]);
    expect(e.detail).toBe("The existing-vm configuration 'inline' cannot be used: vms.port is 70000: must be an integer from 1 to 65535");
  });

  it("an unknown driver, with the drivers there are", () => {
    const e = refusal({ provider: { class: "cloud", driver: "vsphere" }, vm: {} });
    expect(e.extras.errors).toEqual([{ path: "/config/provider/driver", message: "is 'vsphere': must be one of: ec2, openstack, gce, azure" }]);
  });

  it("an unknown class, with its own code and the classes there are", () => {
    const e = refusal({ provider: { class: "teleport" }, s: {} });
    expect(e.code).toBe("unknown_provider_class");
    expect(e.extras.errors).toEqual([
      {
        path: "/config/provider/class",
        message: expect.stringMatching(/^is 'teleport': must be one of: local, existing-vm, .*LibcloudComputeProvider$/),
      },
    ]);
    expect(e.extras.choices).toContain("existing-vm");
  });

  it("every problem at once, each at its own field, in hosts too", () => {
    const e = refusal({
      provider: { class: "existing-vm" },
      vms: {
        allow_install: "maybe",
        hosts: [{ host: "a", ip_address: "b", password: "pw12", port: "ssh" }, { host: "c" }, { host: "a", ip_address: "a", password: "pw12" }],
      },
    });
    expect(e.extras.errors).toEqual([
      { path: "/config/vms/allow_install", message: "is 'maybe': must be true or false" },
      {
        path: "/config/vms/hosts/0/ip_address",
        message: "differs from host: host and ip_address name the same setting: give one, or both alike",
      },
      { path: "/config/vms/hosts/0/port", message: "is 'ssh': must be an integer from 1 to 65535" },
      {
        path: "/config/vms/hosts/0/vm_user",
        message: "is missing: must be the login user, as vm_user or user, on the host or its section",
      },
      {
        path: "/config/vms/hosts/1/vm_user",
        message: "is missing: must be the login user, as vm_user or user, on the host or its section",
      },
      { path: "/config/vms/hosts/1", message: "has no credential: ssh_private_key, key_path or password is required" },
      {
        path: "/config/vms/hosts/2/vm_user",
        message: "is missing: must be the login user, as vm_user or user, on the host or its section",
      },
      { path: "/config/vms/hosts/2", message: "repeats a:22: each host (by name, or host and port) at most once" },
    ]);
  });

  it("what a cloud driver requires", () => {
    const e = refusal({
      provider: { class: "cloud", driver: "gce", access_id: "sa@x", secret_key: "k3y-text" },
      vm: { size: "s", ssh_port: 0 },
    });
    expect(e.extras.errors).toEqual([
      { path: "/config/provider/region", message: "is missing: must be a non-empty string" },
      { path: "/config/provider/project", message: "is missing: must be a non-empty string" },
      { path: "/config/vm/image", message: "is missing: must be a non-empty string" },
      { path: "/config/vm/vm_user", message: "is missing: must be a non-empty string" },
      { path: "/config/vm/ssh_port", message: "is 0: must be an integer from 1 to 65535" },
    ]);
  });

  it("an inline configuration reaching into the server", () => {
    const e = refusal({ provider: { class: "existing-vm" }, vms: { host: "h", vm_user: "u", key_path: "/etc/shadow" } });
    expect(e.extras.errors).toEqual([
      {
        path: "/config/vms/key_path",
        message: "names a file on the server to use as SSH key: send ssh_private_key instead, or store the configuration on the server",
      },
    ]);
  });

  it("never with a credential in it", () => {
    const secrets = ["s3cret-password-1", "AKIA-SECRET-ID", "wJalrX-SECRET-KEY", "not a key but secret text"];
    const errors = [
      refusal({ provider: { class: "existing-vm" }, vms: { host: "h", vm_user: "u", password: 1234567, ssh_private_key: secrets[3] } }),
      refusal({
        provider: { class: "cloud", driver: "ec2", access_id: { id: secrets[1] }, secret_key: [secrets[2]], region: "r" },
        vm: { image: "i", size: "s", vm_user: "u" },
      }),
      refusal({
        provider: {
          class: "cloud",
          driver: "openstack",
          auth_url: `ftp://u:${secrets[0]}@keystone`,
          access_id: secrets[1],
          secret_key: secrets[2],
        },
        vm: { image: "i", size: "s" },
      }),
    ];
    expect(errors.map((e) => e.extras.errors)).toEqual([
      [
        { path: "/config/vms/ssh_private_key", message: "is not a private key: must be a PEM or OpenSSH private key" },
        { path: "/config/vms/password", message: "is a number that is not allowed here: must be a non-empty string" },
      ],
      [
        { path: "/config/provider/access_id", message: "is a mapping: must be a string" },
        { path: "/config/provider/secret_key", message: "is a list: must be a string" },
      ],
      [{ path: "/config/provider/auth_url", message: "is not an http(s) URL: must start with http:// or https://" }],
    ]);
    const said = errors.map((e) => JSON.stringify({ detail: e.detail, extras: e.extras })).join("\n");
    for (const secret of [...secrets, "1234567"]) expect(said).not.toContain(secret);
  });
});
