import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseIni } from "./ini.js";
import { parseProviderConfig } from "./parse-provider-config.js";
import { normalizePrivateKey } from "./private-key.js";
import { canonicalClass, loadProviderConfigs, resolveInline, resolveStored, toConfigFile } from "./provider-config.js";

const KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\nAAAAAAAB\n-----END OPENSSH PRIVATE KEY-----\n";

// The Benchmarking Suite's own example of an EC2 configuration file, key indented.
const ANCESTOR_CONF = `[provider]
class = benchsuite.stdlib.provider.libcloud.LibcloudComputeProvider
name = ec2-example
driver = ec2
access_id = AKIAEXAMPLE
secret_key = SECRETEXAMPLE
region = us-west-1

[ubuntu_micro]
image = ami-73f7da13
size = t2.micro
vm_user = ubuntu
platform = ubuntu_16
key_name = bench-key
ssh_private_key = -----BEGIN OPENSSH PRIVATE KEY-----
    b3BlbnNzaC1rZXktdjEAAAAA
    AAAAAAAB
    -----END OPENSSH PRIVATE KEY-----
`;

describe("provider configurations", () => {
  it("reads the ancestor's INI files, continuation lines included", () => {
    const ini = parseIni(ANCESTOR_CONF);
    expect(ini.provider.driver).toBe("ec2");
    expect(normalizePrivateKey(ini.ubuntu_micro.ssh_private_key)).toBe(KEY);
  });

  it("loads YAML and .conf files from providers/ by file name, skipping broken ones", () => {
    const dir = mkdtempSync(join(tmpdir(), "bw-config-"));
    mkdirSync(join(dir, "providers"));
    writeFileSync(join(dir, "providers", "local.yaml"), "provider:\n  class: local\ndefault:\n  allow_install: false\n");
    writeFileSync(join(dir, "providers", "aws.conf"), ANCESTOR_CONF);
    writeFileSync(join(dir, "providers", "broken.yaml"), "provider:\n  class: teleport\n");
    const errors: string[] = [];
    const configs = loadProviderConfigs(dir, (file) => errors.push(file));
    expect(configs.map((c) => [c.name, c.providerClass, Object.keys(c.services)])).toEqual([
      ["aws", "cloud", ["ubuntu_micro"]],
      ["local", "local", ["default"]],
    ]);
    expect(errors).toEqual([join(dir, "providers", "broken.yaml")]);
    const resolved = parseProviderConfig(resolveStored(configs, "aws", "ubuntu_micro"));
    expect(resolved).toMatchObject({ class: "cloud", driver: "ec2", region: "us-west-1", keyName: "bench-key", sshPrivateKey: KEY });
    expect(() => resolveStored(configs, "gcp", "x")).toThrow(/No provider configuration 'gcp'/);
    expect(() => resolveStored(configs, "aws", "large")).toThrow(
      expect.objectContaining({ code: "unknown_service_type", extras: { choices: ["ubuntu_micro"] } }),
    );
    // No service type named: the only one, as the Benchmarking Suite took it; with several, the choices.
    expect(resolveStored(configs, "aws").serviceType).toBe("ubuntu_micro");
    expect(resolveStored(configs, "aws", null).serviceType).toBe("ubuntu_micro");
    const two = [{ ...configs[1], services: { a: {}, b: {} } }];
    expect(() => resolveStored(two, "local", null)).toThrow(expect.objectContaining({ code: "unknown_service_type", extras: { choices: ["a", "b"] } }));
  });

  it("resolves Form B with its key's line ends written as \\n, escaped once or twice", () => {
    for (const key of [KEY, KEY.replace(/\n/g, "\\n")]) {
      const r = parseProviderConfig(resolveInline({ provider: { class: "existing-vm", name: "lab" }, vms: { host: "h", vm_user: "u", ssh_private_key: key } }));
      expect(r).toMatchObject({ name: "lab", serviceType: "vms", class: "existing-vm", hosts: [{ ssh_private_key: KEY }] });
    }
  });

  describe("an inline configuration cannot reach into the server", () => {
    const refusal = (config: Record<string, unknown>) => {
      try {
        parseProviderConfig(resolveInline(config));
      } catch (e) {
        return e as { code: string; detail: string; extras: { errors?: Array<{ path: string; message: string }> } };
      }
      throw new Error("resolveInline accepted it");
    };

    it("refuses key_path on the service section: it would read any file of the server as a key", () => {
      const e = refusal({ provider: { class: "existing-vm" }, vms: { host: "h", vm_user: "u", key_path: "/etc/shadow" } });
      expect(e.code).toBe("invalid_configuration");
      expect(e.detail).toMatch(/vms\.key_path names a file on the server/);
      expect(e.extras.errors).toEqual([{ path: "/config/vms/key_path", message: expect.stringMatching(/ssh_private_key/) }]);
    });

    it("refuses key_path on any host of the list, naming each", () => {
      const e = refusal({
        provider: { class: "existing-vm" },
        vms: {
          vm_user: "u",
          ssh_private_key: KEY,
          hosts: [{ host: "a" }, { host: "b", key_path: "/root/.ssh/id_ed25519" }, { host: "c", key_path: "k" }],
        },
      });
      expect(e.detail).toMatch(/vms\.hosts\[1\]\.key_path .*vms\.hosts\[2\]\.key_path/);
      expect(e.extras.errors?.map((x) => x.path)).toEqual(["/config/vms/hosts/1/key_path", "/config/vms/hosts/2/key_path"]);
    });

    it.each([true, "yes", 1])("refuses allow_install %j on local: it would install packages as root on the server", (value) => {
      const e = refusal({ provider: { class: "local" }, bench: { allow_install: value } });
      expect(e.code).toBe("invalid_configuration");
      expect(e.detail).toMatch(/bench\.allow_install would install system packages on the server itself/);
      expect(e.extras.errors?.map((x) => x.path)).toEqual(["/config/bench/allow_install"]);
    });

    it("keeps what stays on the client's machines: allow_install false on local, true on existing-vm, inline keys", () => {
      const inline = (config: Record<string, unknown>) => parseProviderConfig(resolveInline(config));
      expect(inline({ provider: { class: "local" }, bench: { allow_install: false } })).toMatchObject({ allowInstall: false });
      expect(inline({ provider: { class: "existing-vm" }, vms: { host: "h", vm_user: "u", ssh_private_key: KEY, allow_install: true } })).toMatchObject({
        allowInstall: true,
      });
    });

    it("leaves stored configurations (written by the operator) free to use both", () => {
      const stored = [
        toConfigFile("lab", { provider: { class: "existing-vm" }, vms: { host: "h", vm_user: "u", key_path: "/keys/lab" } }),
        toConfigFile("here", { provider: { class: "local" }, root: { allow_install: true } }),
      ];
      expect(parseProviderConfig(resolveStored(stored, "lab", "vms"))).toMatchObject({ hosts: [{ key_path: "/keys/lab" }] });
      expect(parseProviderConfig(resolveStored(stored, "here", "root"))).toMatchObject({ allowInstall: true });
    });
  });

  it("accepts the ancestor's class names and refuses unknown ones with the choices", () => {
    expect(canonicalClass("benchsuite.stdlib.provider.existing_vm.ExistingVMProvider")).toBe("existing-vm");
    expect(() => canonicalClass("teleport")).toThrow(expect.objectContaining({ code: "unknown_provider_class" }));
  });
});
