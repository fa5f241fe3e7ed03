import { describe, expect, it } from "vitest";
import type { ResolvedConfig } from "./provider.js";
import { assertValidConfig } from "./registry.js";

const config = (service: Record<string, unknown>): ResolvedConfig => ({ name: "lab", serviceType: "vms", providerClass: "existing-vm", provider: { class: "existing-vm" }, service });

// The engine is called without the HTTP layer's schema too: a malformed section is a
// configuration problem, never a TypeError (a 500).
describe("existing-vm configuration checks", () => {
  it.each([["a string", "h1,h2"], ["an object", { host: "h" }], ["a list with a null", [null]], ["a list of strings", ["h1"]]])(
    "refuses hosts given as %s",
    (_name, hosts) => {
      expect(() => assertValidConfig(config({ vm_user: "u", ssh_private_key: "x", hosts }))).toThrow(
        expect.objectContaining({ code: "invalid_configuration", detail: expect.stringMatching(/vms\.hosts: must be a list/) }),
      );
    },
  );

  it("lists every missing field of every host", () => {
    expect(() => assertValidConfig(config({ hosts: [{ host: "a" }, { host: "b", vm_user: "u" }] }))).toThrow(/hosts\[0\]: vm_user is required.*hosts\[1\]: ssh_private_key or key_path is required/);
  });
});
