import { describe, expect, it } from "vitest";
import { normalizePlatform, pickScript, platformCandidates } from "./platform.js";

describe("platformCandidates", () => {
  it("falls back token by token to the bare prefix", () => {
    expect(platformCandidates("install", "ubuntu_22_04")).toEqual(["install_ubuntu_22_04", "install_ubuntu_22", "install_ubuntu", "install"]);
    expect(platformCandidates("run", "debian")).toEqual(["run_debian", "run"]);
  });

  it("gives only the prefix for an empty platform", () => {
    expect(platformCandidates("install", "")).toEqual(["install"]);
  });

  it("normalises spelling", () => {
    expect(normalizePlatform(" Ubuntu 22.04 ")).toBe("ubuntu_22_04");
    expect(normalizePlatform("CentOS-Stream__9")).toBe("centos_stream_9");
    expect(platformCandidates("run", "Debian 12")).toEqual(["run_debian_12", "run_debian", "run"]);
  });
});

describe("pickScript", () => {
  const scripts = { install: "generic", install_ubuntu: "ubuntu", install_ubuntu_22_04: "jammy", check: "x" };

  it("picks the most specific script", () => {
    expect(pickScript(scripts, "install", "ubuntu_22_04")).toEqual({ key: "install_ubuntu_22_04", script: "jammy" });
    expect(pickScript(scripts, "install", "ubuntu_20_04")).toEqual({ key: "install_ubuntu", script: "ubuntu" });
    expect(pickScript(scripts, "install", "centos_9")).toEqual({ key: "install", script: "generic" });
  });

  it("does not mistake a longer token for a prefix", () => {
    expect(pickScript({ install_ubuntu_2: "two", install: "g" }, "install", "ubuntu_22")).toEqual({ key: "install", script: "g" });
  });

  it("gives undefined when nothing fits", () => {
    expect(pickScript({ install_debian: "d" }, "install", "centos_9")).toBeUndefined();
    expect(pickScript(scripts, "prepare", "debian_12")).toBeUndefined();
  });
});
