import { describe, expect, it } from "vitest";
import { recordedOutput } from "./recorded-output.js";
import { redisBenchmark } from "./redis-benchmark.js";

const { fixture, ctx } = recordedOutput("redis-benchmark");

describe("redis-benchmark parser", () => {
  it("reads requests per second and latencies of a test", () => {
    const tags = { test: "SET" };
    expect(redisBenchmark(fixture("set"), ctx("set"))).toEqual([
      { name: "requests_per_second", value: 85324.23, unit: "requests/s", tags },
      { name: "latency_avg_ms", value: 0.36, unit: "ms", tags },
      { name: "latency_min_ms", value: 0.08, unit: "ms", tags },
      { name: "latency_p50_ms", value: 0.319, unit: "ms", tags },
      { name: "latency_p95_ms", value: 0.623, unit: "ms", tags },
      { name: "latency_p99_ms", value: 0.895, unit: "ms", tags },
      { name: "latency_max_ms", value: 3.039, unit: "ms", tags },
    ]);
  });

  it("tags each test of a run of several, and keeps names with spaces", () => {
    const m = redisBenchmark(fixture("lpop"), ctx("lpop")).filter((x) => x.name === "requests_per_second");
    expect(m).toEqual([
      { name: "requests_per_second", value: 49652.43, unit: "requests/s", tags: { test: "LPUSH" } },
      { name: "requests_per_second", value: 52966.1, unit: "requests/s", tags: { test: "LPOP" } },
    ]);
    expect(redisBenchmark(fixture("mset"), ctx("mset"))[0]?.tags).toEqual({ test: "MSET (10 keys)" });
  });

  it("gives [] without the header, for errors and garbage", () => {
    const full = fixture("set");
    expect(redisBenchmark(full.slice(full.indexOf("\n") + 1), ctx("set"))).toEqual([]);
    expect(redisBenchmark("Could not connect to Redis at 127.0.0.1:6379: Connection refused", ctx("set"))).toEqual([]);
    expect(redisBenchmark("", ctx("set"))).toEqual([]);
  });
});
