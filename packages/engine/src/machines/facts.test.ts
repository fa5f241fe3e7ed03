import { describe, expect, it } from "vitest";
import { LocalShell } from "../transport/local-shell.js";
import { parseFacts, readMachineFacts } from "./facts.js";

describe("machine facts", () => {
  it("reads platform tokens the catalog falls back on", () => {
    expect(parseFacts("os_id=ubuntu\nos_version=22.04\n").platform).toBe("ubuntu_22_04");
    expect(parseFacts("cpu_count=\nmemory_kib=abc\n")).toEqual({});
  });

  it("reads this host's facts through a real shell", async () => {
    const facts = await readMachineFacts(new LocalShell());
    expect(facts.cpu_count).toBeGreaterThan(0);
    expect(facts.memory_bytes).toBeGreaterThan(1024 * 1024);
    expect(facts.kernel).toMatch(/\d+\.\d+/);
    expect(facts.platform).toMatch(/^[a-z]+_\d+/);
  });
});
