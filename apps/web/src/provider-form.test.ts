import { describe, expect, it } from "vitest";
import { providerDocumentOf } from "./provider-form.js";

describe("the dashboard's provider configuration form", () => {
  it("makes the document a file would hold, blank fields left for the server to name", () => {
    expect(providerDocumentOf({ class: "existing-vm", serviceType: "vms", host: " 192.0.2.10 ", port: "2222", user: "", privateKey: "KEY TEXT" })).toEqual({
      provider: { class: "existing-vm" },
      vms: { host: "192.0.2.10", port: 2222, ssh_private_key: "KEY TEXT" },
    });
  });

  it("sends a password only without a key, and nothing of a host for local", () => {
    expect(providerDocumentOf({ class: "existing-vm", serviceType: "", host: "h", password: "pw-1234" })).toEqual({
      provider: { class: "existing-vm" },
      default: { host: "h", password: "pw-1234" },
    });
    expect(providerDocumentOf({ class: "local", serviceType: "here", host: "ignored", password: "x" })).toEqual({ provider: { class: "local" }, here: {} });
  });
});
