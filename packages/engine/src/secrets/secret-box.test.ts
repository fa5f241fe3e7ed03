import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SecretBox } from "./secret-box.js";

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

  it("derives one secret per purpose, the same from the same key on any server, and nothing of the key in it", () => {
    const key = Buffer.alloc(32, 7).toString("base64");
    const one = SecretBox.fromEnvironment(mkdtempSync(join(tmpdir(), "bw-")), key);
    const other = SecretBox.fromEnvironment(mkdtempSync(join(tmpdir(), "bw-")), key);
    const secret = one.derive("step e1 run 1");
    expect(secret).toMatch(/^[0-9a-f]{32}$/);
    expect(other.derive("step e1 run 1")).toBe(secret);
    expect(one.derive("step e1 run 2")).not.toBe(secret);
    expect(SecretBox.fromEnvironment(mkdtempSync(join(tmpdir(), "bw-")), Buffer.alloc(32, 8).toString("base64")).derive("step e1 run 1")).not.toBe(secret);
    expect(secret).not.toContain(Buffer.alloc(32, 7).toString("hex").slice(0, 8));
  });
});
