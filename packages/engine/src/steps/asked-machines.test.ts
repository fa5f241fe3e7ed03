import { describe, expect, it } from "vitest";
import type { Machine } from "../providers/provider.js";
import { askedMachines, machinesToAsk } from "./asked-machines.js";

const pool: Machine[] = ["a", "b", "c", "d"].map((id) => ({ id, ip: "127.0.0.1", platform: "linux", workRoot: "/w", allowInstall: false }));

describe("the machines an execution asks for", () => {
  it("asks the provider for enough machines to reach the last one it runs on", () => {
    expect(machinesToAsk(1, false, undefined)).toBe(1);
    expect(machinesToAsk(1, false, { machines: 3 })).toBe(3);
    expect(machinesToAsk(1, false, { machines: 2, first_machine: 3 })).toBe(5);
    // A workload with roles maps its roles: the count does not apply.
    expect(machinesToAsk(2, true, { machines: 5 })).toBe(2);
  });

  it("runs on its slice of the session's machines, and fails saying how many there are when there are too few", () => {
    expect(askedMachines(pool, false, null).map((m) => m.id)).toEqual(["a", "b", "c", "d"]);
    expect(askedMachines(pool, false, { machines: 2 }).map((m) => m.id)).toEqual(["a", "b"]);
    expect(askedMachines(pool, false, { machines: 2, first_machine: 2 }).map((m) => m.id)).toEqual(["c", "d"]);
    expect(() => askedMachines(pool, false, { machines: 3, first_machine: 2 })).toThrow(/3 machines from the session's machine 3, and the session has 4/);
  });
});
