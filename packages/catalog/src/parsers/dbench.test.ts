import { describe, expect, it } from "vitest";
import { recordedOutput } from "./recorded-output.js";
import { dbench } from "./dbench.js";

const { fixture, ctx } = recordedOutput("dbench");

describe("dbench parser", () => {
  it("reads throughput and the longest latency", () => {
    expect(dbench(fixture("clients_1"), ctx("clients_1"))).toEqual([
      { name: "throughput", value: 188.691, unit: "MB/s", tags: { clients: "1" } },
      { name: "max_latency_ms", value: 8.754, unit: "ms", tags: { clients: "1" } },
    ]);
    expect(dbench(fixture("clients_4"), ctx("clients_4"))[0]).toEqual({
      name: "throughput",
      value: 429.257,
      unit: "MB/s",
      tags: { clients: "4" },
    });
  });

  it("gives [] for an unfinished run and garbage", () => {
    const full = fixture("clients_1");
    expect(dbench(full.slice(0, full.indexOf("Throughput")), ctx("clients_1"))).toEqual([]);
    expect(dbench("dbench version 4.00 - Copyright Andrew Tridgell 1999-2004\n", ctx("clients_1"))).toEqual([]);
    expect(dbench("", ctx("clients_1"))).toEqual([]);
  });
});
