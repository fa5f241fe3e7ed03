import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SecretBox } from "./secrets.js";

describe("SecretBox", () => {
  it("seals so that the stored text holds none of the secret, and opens it back", () => {
    const box = SecretBox.fromEnvironment(mkdtempSync(join(tmpdir(), "bw-")), "");
    const sealed = box.seal({ secret_key: "wJalrXUtnFEMI/K7MDENG" });
    expect(sealed).not.toContain("wJalrXUtnFEMI");
    expect(box.open(sealed)).toEqual({ secret_key: "wJalrXUtnFEMI/K7MDENG" });
  });

  it("refuses a sealed value that was tampered with", () => {
    const box = SecretBox.fromEnvironment(mkdtempSync(join(tmpdir(), "bw-")), "");
    const sealed = box.seal("x");
    const tampered = sealed.slice(0, -2) + (sealed.endsWith("A") ? "BB" : "AA");
    expect(() => box.open(tampered)).toThrow();
  });

  it("makes its key once, readable by the owner only, and reuses it", () => {
    const dir = mkdtempSync(join(tmpdir(), "bw-"));
    const sealed = SecretBox.fromEnvironment(dir, "").seal("v");
    expect(SecretBox.fromEnvironment(dir, "").open(sealed)).toBe("v");
    expect(statSync(join(dir, "secret.key")).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, "secret.key"), "utf8").trim()).toHaveLength(44);
  });
});
