import { describe, expect, it } from "vitest";
import { UsageError } from "./exit-codes.js";
import { matchPrefix, resolveExecutionIds, resolveIdAmong } from "./ids.js";
import type { Context } from "./context.js";

const IDS = ["2abd089d-1c3f-4e5a-8b7d-0a1b2c3d4e5f", "2abd089d-9f00-4e5a-8b7d-0a1b2c3d4e60", "7c1e2f30-3a4b-4c6d-9e7f-8a9b0c1d2e3f"];

describe("an id from its first characters", () => {
  it("finds the one id a prefix starts, in any case", () => {
    expect(matchPrefix("7c1e2f30", IDS, "execution")).toBe(IDS[2]);
    expect(matchPrefix("2ABD089D-1C", IDS, "execution")).toBe(IDS[0]);
  });

  it("refuses a prefix of several ids, listing them, and one of none", () => {
    expect(() => matchPrefix("2abd089d", IDS, "execution")).toThrow(UsageError);
    expect(() => matchPrefix("2abd089d", IDS, "execution")).toThrow(`'2abd089d' is the start of 2 executions' ids; give more of it:\n  ${IDS[0]}\n  ${IDS[1]}`);
    expect(() => matchPrefix("ffffffff", IDS, "execution")).toThrow("no execution's id starts with 'ffffffff'");
  });

  it("says a prefix under 8 characters is too short, before asking the server (which would answer a raw format error)", async () => {
    const asked: string[] = [];
    const ctx = { bw: new Proxy({}, { get: (_t, name) => (asked.push(String(name)), () => undefined) }) } as unknown as Context;
    const tooShort = "'2abd' is too short to name an id: give at least 8 of its characters (as the dashboard shows them), or the whole id";
    await expect(resolveExecutionIds(ctx, ["2abd"])).rejects.toThrow(tooShort);
    await expect(resolveExecutionIds(ctx, [IDS[0], "7c1e-"])).rejects.toThrow(UsageError);
    await expect(resolveIdAmong("2abd", async () => IDS.map((id) => ({ id })), "plan")).rejects.toThrow(tooShort);
    expect(asked).toEqual([]);
    // Not hex: left to the server, as before.
    await expect(resolveExecutionIds(ctx, ["latest"])).resolves.toEqual(["latest"]);
  });
});
