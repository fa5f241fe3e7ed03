import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseIni } from "./ini.js";
import { canonicalClass, loadProviderConfigs, normalizePrivateKey, resolveInline, resolveStored } from "./provider-config.js";

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
    const resolved = resolveStored(configs, "aws", "ubuntu_micro");
    expect(resolved.service.ssh_private_key).toBe(KEY);
    expect(() => resolveStored(configs, "gcp", "x")).toThrow(/No provider configuration 'gcp'/);
    expect(() => resolveStored(configs, "aws", "large")).toThrow(expect.objectContaining({ code: "unknown_service_type", extras: { choices: ["ubuntu_micro"] } }));
  });

  it("resolves Form B with its key's line ends written as \\n, escaped once or twice", () => {
    for (const key of [KEY, KEY.replace(/\n/g, "\\n")]) {
      const r = resolveInline({ provider: { class: "existing-vm", name: "lab" }, vms: { host: "h", vm_user: "u", ssh_private_key: key } });
      expect(r).toMatchObject({ name: "lab", serviceType: "vms", providerClass: "existing-vm" });
      expect(r.service.ssh_private_key).toBe(KEY);
    }
  });

  it("accepts the ancestor's class names and refuses unknown ones with the choices", () => {
    expect(canonicalClass("benchsuite.stdlib.provider.existing_vm.ExistingVMProvider")).toBe("existing-vm");
    expect(() => canonicalClass("teleport")).toThrow(expect.objectContaining({ code: "unknown_provider_class" }));
  });
});
