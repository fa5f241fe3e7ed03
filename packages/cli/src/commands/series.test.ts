// `series` and `regressions` as a user runs them (the built command), against the Prism mock of the
// contract: its examples are a series whose tool upgrade made a regression.
import { startPrism, type RunningPrism } from "@benchwright/contract/prism";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../test-support/cli-process.js";
import { baselineOf } from "./series.js";

const SERIES_ID = "2b7e1c9a-4d3f-4a8b-9e6c-5f1d0a2b3c4e";
const CHANGE_ID = "6c2d8e4f-1a3b-4c5d-8e9f-0a1b2c3d4e5f";

let prism: RunningPrism;
const cli = (...args: string[]) => runCli([...args, "--url", prism.url]);

beforeAll(async () => {
  prism = await startPrism({ mode: "mock" });
});
afterAll(() => prism?.stop());

describe("benchwright series", () => {
  it("lists the series with their filters", async () => {
    const { code, stdout } = await cli("series", "--tool", "sysbench", "--service-type", "default");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ID\s+BENCHMARK\s+METRIC\s+TARGET\s+POINTS\s+LATEST/);
    expect(stdout).toContain(`${SERIES_ID}  sysbench/cpu_10000 (threads=2, events=10000)  events_per_second {threads=2}  local/default  40`);
    expect(stdout).toContain("2160.4 ± 11.5");
  });

  it("shows a series: its latest point, baseline, points with their interval, and changes with the facts that changed", async () => {
    const { code, stdout } = await cli("series", SERIES_ID);
    expect(code).toBe(0);
    expect(stdout).toMatch(/latest\s+#40 2160.4 ± 11.5 \(n=5\)/);
    expect(stdout).toMatch(/baseline\s+points 1-5 \(5\): 2401.1 ± 5.9/);
    expect(stdout).toMatch(/vs baseline\s+-10.0% \[-10.5%, -9.6%\] regression/);
    expect(stdout).toMatch(/34\s+2026-11-16 03:00:05\s+2157.2 ± 11.2\s+5\s+regression -10.0%/);
    expect(stdout).toContain("tool_version: sysbench 1.0.20+ds-5 → sysbench 1.0.20+ds-6");
  });

  it("prints one JSON document with --json", async () => {
    const { code, stdout } = await cli("series", SERIES_ID, "--json");
    expect(code).toBe(0);
    const doc = JSON.parse(stdout) as { series: { id: string }; points: unknown[]; changes: Array<{ id: string }> };
    expect(doc.series.id).toBe(SERIES_ID);
    expect(doc.points).toHaveLength(2);
    expect(doc.changes[0]!.id).toBe(CHANGE_ID);
  });

  it("sets and clears the baseline", async () => {
    const set = await cli("series", SERIES_ID, "--baseline", "1-5");
    expect(set.code).toBe(0);
    expect(set.stderr).toContain("baseline set to points 1-5");
    const cleared = await cli("series", SERIES_ID, "--clear-baseline");
    expect(cleared.code).toBe(0);
    expect(cleared.stderr).toContain("baseline cleared");
  });

  it("shows one branch's points with --branch (the contract's branch query), and asks for a series' id with it", async () => {
    const { code, stdout } = await cli("series", SERIES_ID, "--branch", "main");
    expect(code).toBe(0);
    expect(stdout).toContain("Points on branch main");
    const listing = await cli("series", "--branch", "main");
    expect(listing.code).toBe(2);
    expect(listing.stderr).toContain("--branch shows one series' points: give the series' id");
  });

  it("refuses a baseline that is no point or range, and filters with an id, as usage errors", async () => {
    expect(await cli("series", SERIES_ID, "--baseline", "5-1")).toMatchObject({ code: 2 });
    const bad = await cli("series", SERIES_ID, "--baseline", "first");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--baseline takes a point or a range of points");
    expect(await cli("series", SERIES_ID, "--tool", "fio")).toMatchObject({ code: 2 });
  });
});

describe("benchwright regressions", () => {
  it("lists the open regressions: series, point, size with its interval, facts changed", async () => {
    const { code, stdout } = await cli("regressions");
    expect(code).toBe(0);
    expect(stdout).toContain(CHANGE_ID);
    expect(stdout).toContain("sysbench/cpu_10000 (threads=2, events=10000) events_per_second{threads=2} on local/default");
    expect(stdout).toContain("#34 at 2026-11-16 03:00:05");
    expect(stdout).toContain("-10.0% [-10.4%, -9.7%]");
    expect(stdout).toContain("2400.6 → 2159.8 events/s");
    expect(stdout).toContain("tool_version: sysbench 1.0.20+ds-5 → sysbench 1.0.20+ds-6");
  });

  it("finds a series or a change by the first characters of its id", async () => {
    expect((await cli("series", SERIES_ID.slice(0, 8))).stdout).toContain(`id            ${SERIES_ID}`);
    expect((await cli("regressions", "ack", CHANGE_ID.slice(0, 8))).code).toBe(0);
  });

  it("acknowledges a change", async () => {
    const { code, stdout } = await cli("regressions", "ack", CHANGE_ID);
    expect(code).toBe(0);
    expect(stdout).toMatch(/acknowledged\s*$/m);
  });

  it("exits 2 for a change id the contract refuses", async () => {
    const { code, stderr } = await cli("regressions", "ack", "not-an-id");
    expect(code).toBe(2);
    expect(stderr).toContain("HTTP 400");
  });
});

describe("baselineOf", () => {
  it("reads a point or a range", () => {
    expect(baselineOf("3")).toEqual({ from: 3 });
    expect(baselineOf("1-5")).toEqual({ from: 1, to: 5 });
    expect(() => baselineOf("0")).toThrow(/from 1/);
  });
});
