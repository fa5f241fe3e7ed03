import { describe, expect, it } from "vitest";
import { inlineSessionBody } from "./inline-config.js";

describe("inlineSessionBody", () => {
  it("takes a configuration in YAML, as a stored file holds it", () => {
    const yaml =
      "provider:\n  class: existing-vm\n  name: lab\ndefault:\n  host: 192.0.2.10\n  vm_user: ubuntu\n  ssh_private_key: |\n    -----BEGIN KEY-----\n    abc\n    -----END KEY-----\n";
    expect(inlineSessionBody(yaml)).toEqual({
      config: {
        provider: { class: "existing-vm", name: "lab" },
        default: { host: "192.0.2.10", vm_user: "ubuntu", ssh_private_key: "-----BEGIN KEY-----\nabc\n-----END KEY-----\n" },
      },
    });
  });

  it("takes JSON, bare or as the whole Form B body", () => {
    const config = { provider: { class: "local", name: "pasted" }, default: {} };
    expect(inlineSessionBody(JSON.stringify(config))).toEqual({ config });
    expect(inlineSessionBody(JSON.stringify({ config }))).toEqual({ config });
  });

  it("says what is wrong with what cannot be a configuration", () => {
    expect(() => inlineSessionBody("provider: [unclosed")).toThrow(/Not YAML or JSON/);
    expect(() => inlineSessionBody("- a\n- b")).toThrow(/Paste a mapping/);
    expect(() => inlineSessionBody("default: {}")).toThrow(/no provider section/);
  });
});
