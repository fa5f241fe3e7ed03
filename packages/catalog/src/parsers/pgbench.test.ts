import { describe, expect, it } from "vitest";
import { recordedOutput } from "./recorded-output.js";
import { pgbench } from "./pgbench.js";

const { fixture, ctx } = recordedOutput("pgbench");

describe("pgbench parser", () => {
  it("reads tps, latency and counts of the TPC-B-like script", () => {
    const tags = { type: "TPC-B (sort of)" };
    expect(pgbench(fixture("tpcb_like"), ctx("tpcb_like"))).toEqual([
      { name: "tps", value: 1104.347304, unit: "transactions/s", tags },
      { name: "latency_avg_ms", value: 1.811, unit: "ms", tags },
      { name: "transactions", value: 2206, unit: "transactions", tags },
      { name: "failed_transactions", value: 0, unit: "transactions", tags },
      { name: "connection_time_ms", value: 7.746, unit: "ms", tags },
    ]);
  });

  it("tags the select-only script", () => {
    expect(pgbench(fixture("select_only"), ctx("select_only"))[0]).toEqual({
      name: "tps",
      value: 22666.538508,
      unit: "transactions/s",
      tags: { type: "select only" },
    });
  });

  it("takes the tps without connections of pgbench 13 and older", () => {
    const old =
      "transaction type: <builtin: select only>\ntps = 900.5 (including connections establishing)\ntps = 1000.25 (excluding connections establishing)\n";
    expect(pgbench(old, ctx("select_only"))).toEqual([{ name: "tps", value: 1000.25, unit: "transactions/s", tags: { type: "select only" } }]);
  });

  it("gives [] for an unfinished run and garbage", () => {
    const full = fixture("tpcb_like");
    expect(pgbench(full.slice(0, full.indexOf("tps =")), ctx("tpcb_like"))).toEqual([]);
    expect(pgbench('pgbench: error: connection to server at "127.0.0.1", port 5432 failed', ctx("tpcb_like"))).toEqual([]);
    expect(pgbench("", ctx("tpcb_like"))).toEqual([]);
  });
});
