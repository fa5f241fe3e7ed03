import { describe, expect, it } from "vitest";
import { isBenchwrightError } from "../errors.js";
import { checkDocument } from "./check-document.js";

/** The refusal's code and its problems' paths, or "accepted". */
function refusal(document: Record<string, unknown>): { code: string; paths: string[]; detail: string } | "accepted" {
  try {
    checkDocument("lab", document);
    return "accepted";
  } catch (e) {
    if (!isBenchwrightError(e)) throw e;
    return { code: e.code, paths: (e.extras.errors ?? []).map((x) => x.path), detail: e.detail };
  }
}

describe("a provider configuration written through the API", () => {
  it("is refused with every problem of every service type at once, at its place in the body", () => {
    const found = refusal({
      provider: { class: "existing-vm" },
      vms: { hosts: [{ port: 70000, vm_user: "bench", password: "pw" }] },
      more: "not a section",
    });
    expect(found).toMatchObject({ code: "invalid_configuration" });
    expect(found !== "accepted" && found.paths).toEqual(
      expect.arrayContaining(["/body/more", "/body/vms/hosts/0/host", "/body/vms/hosts/0/port", "/body/vms/hosts/0/password"]),
    );
  });

  it("names a provider section's problem once, however many service types share it", () => {
    const found = refusal({
      provider: { class: "cloud", driver: "ec2" },
      a: { image: "i", size: "s", vm_user: "u" },
      b: { image: "i", size: "s", vm_user: "u" },
    });
    expect(found !== "accepted" && found.paths.filter((p) => p === "/body/provider/region")).toHaveLength(1);
  });

  it("needs a known class and a service type", () => {
    expect(refusal({ provider: { class: "mainframe" }, x: {} })).toMatchObject({ code: "unknown_provider_class", paths: ["/body/provider/class"] });
    expect(refusal({ provider: { class: "local" } })).toMatchObject({ code: "invalid_configuration", paths: ["/body"] });
  });

  it("never repeats a credential in its refusal", () => {
    const found = refusal({ provider: { class: "cloud", driver: "ec2", secret_key: "s3cr3t-value-0001" }, a: {} });
    expect(found !== "accepted" && found.detail).not.toContain("s3cr3t-value-0001");
  });

  it("accepts what a file may hold", () => {
    expect(refusal({ provider: { class: "local", name: "local" }, default: { allow_install: false } })).toBe("accepted");
  });
});
