import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LocalShell } from "../transport/local-shell.js";
import { parseFacts, readMachineFacts } from "./facts.js";

describe("machine facts", () => {
  it("reads platform tokens the catalog falls back on", () => {
    expect(parseFacts("os_id=ubuntu\nos_version=22.04\n").platform).toBe("ubuntu_22_04");
    expect(parseFacts("cpu_count=\nmemory_kib=abc\n")).toEqual({});
  });

  it("reads the facts a Debian VM printed, its microcode revision among them", () => {
    // What FACTS_SCRIPT printed on a Debian 12 VM of an AMD EPYC host.
    const recorded = [
      "cpu_model=AMD EPYC 7B13",
      "microcode=0x1000065",
      "cpu_count=2",
      "memory_kib=8130492",
      "kernel=6.1.0-18-amd64",
      "os_release=Debian GNU/Linux 12 (bookworm)",
      "os_id=debian",
      "os_version=12",
      "",
    ].join("\n");
    expect(parseFacts(recorded)).toEqual({
      cpu_model: "AMD EPYC 7B13",
      microcode: "0x1000065",
      cpu_count: 2,
      memory_bytes: 8130492 * 1024,
      kernel: "6.1.0-18-amd64",
      os_release: "Debian GNU/Linux 12 (bookworm)",
      platform: "debian_12",
    });
    // Where /proc/cpuinfo says nothing of microcode (ARM, some hypervisors), nothing is recorded.
    expect(parseFacts("cpu_model=Neoverse-N1\nmicrocode=\n")).toEqual({ cpu_model: "Neoverse-N1" });
  });

  it("reads this host's facts through a real shell", async () => {
    const facts = await readMachineFacts(new LocalShell());
    expect(facts.cpu_count).toBeGreaterThan(0);
    expect(facts.memory_bytes).toBeGreaterThan(1024 * 1024);
    expect(facts.kernel).toMatch(/\d+\.\d+/);
    expect(facts.platform).toMatch(/^[a-z]+_\d+/);
    const microcode = /^microcode\s*:\s*(\S+)/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1];
    expect(facts.microcode).toBe(microcode);
  });
});
