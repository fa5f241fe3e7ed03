import { describe, expect, it } from "vitest";
import type { Machine } from "../providers/provider.js";
import { machinesNeeded, partDirLabel, partLabel, readyLine, roleEnv, stepParts } from "./role-parts.js";

const machine = (id: string, ip: string): Machine => ({ id, ip, platform: "debian_12", workRoot: "~/.benchwright", allowInstall: false });
const [a, b, c] = [machine("a", "10.0.0.1"), machine("b", "10.0.0.2"), machine("c", "10.0.0.3")];
const ROLES = { server: { count: 1, serves: true }, client: { count: 2, serves: false } };

describe("a step's parts", () => {
  it("are every machine's whole step for a workload without roles", () => {
    expect(stepParts(undefined, [a, b]).map((p) => [p.machine.id, p.role, p.serves])).toEqual([
      ["a", undefined, false],
      ["b", undefined, false],
    ]);
    expect(machinesNeeded(undefined)).toBe(1);
    // Each machine after the first has a dir of its own: machines sharing a file system do not share it.
    expect(stepParts(undefined, [a, b, c]).map(partDirLabel)).toEqual([undefined, "m2", "m3"]);
    expect(stepParts(ROLES, [a, b, c]).map(partDirLabel)).toEqual(stepParts(ROLES, [a, b, c]).map(partLabel));
  });

  it("give the machines to the roles in order, serving roles first", () => {
    expect(machinesNeeded(ROLES)).toBe(3);
    const parts = stepParts({ client: ROLES.client, server: ROLES.server }, [a, b, c]);
    expect(parts.map((p) => [partLabel(p), p.machine.id, p.serves])).toEqual([
      ["server", "c", true],
      ["client", "a", false],
      ["client-2", "b", false],
    ]);
  });

  it("use the machines again in turn where there are fewer: one host holds every role", () => {
    expect(stepParts(ROLES, [a]).map((p) => [partLabel(p), p.machine.id])).toEqual([
      ["server", "a"],
      ["client", "a"],
      ["client-2", "a"],
    ]);
    expect(stepParts(ROLES, [a, b]).map((p) => p.machine.id)).toEqual(["a", "b", "a"]);
  });
});

describe("what a part learns of the roles", () => {
  it("is its own role, every role's addresses, and what the serving roles said when ready", () => {
    const parts = stepParts(ROLES, [a, b, c]);
    const env = roleEnv(parts[2]!, parts, new Map([["server", { port: "5201" }]]));
    expect(env).toEqual({
      BW_ROLE: "client",
      BW_ROLE_INDEX: "1",
      BW_ROLE_SERVER_HOST: "10.0.0.1",
      BW_ROLE_SERVER_HOSTS: "10.0.0.1",
      BW_ROLE_SERVER_PORT: "5201",
      BW_ROLE_CLIENT_HOST: "10.0.0.2",
      BW_ROLE_CLIENT_HOSTS: "10.0.0.2,10.0.0.3",
      BW_PEERS: "10.0.0.1,10.0.0.2,10.0.0.3",
    });
    expect(roleEnv(stepParts(undefined, [a])[0]!, [], new Map())).toEqual({});
    // Cloud machines reach each other at their private addresses.
    const cloud = stepParts(ROLES, [{ ...a, privateIp: "172.31.0.1" }, { ...b, privateIp: "172.31.0.2" }, c]);
    expect(roleEnv(cloud[1]!, cloud, new Map())).toMatchObject({
      BW_ROLE_SERVER_HOST: "172.31.0.1",
      BW_ROLE_CLIENT_HOSTS: "172.31.0.2,10.0.0.3",
      // A serving part's port answers them at either address.
      BW_PEERS: "10.0.0.1,172.31.0.1,10.0.0.2,172.31.0.2,10.0.0.3",
    });
  });

  it("reads the ready line only when it is whole and well formed", () => {
    expect(readyLine("starting\nBW_READY port=5201 proto=tcp\n")).toEqual({ port: "5201", proto: "tcp" });
    expect(readyLine("BW_READY\n")).toEqual({});
    expect(readyLine("BW_READY port=52")).toBeUndefined();
    expect(readyLine("not yet BW_READY port=1\n")).toBeUndefined();
    expect(readyLine("BW_READY PORT=1\n")).toBeUndefined();
    expect(readyLine("BW_READY port=1 $(id)\n")).toBeUndefined();
  });
});
