import { describe, expect, it } from "vitest";
import { recordedOutput } from "./recorded-output.js";
import type { Metric } from "../types.js";
import { sysbench } from "./sysbench.js";

const { fixture, ctx } = recordedOutput("sysbench");
const pick = (metrics: Metric[], name: string, threads?: string) =>
  metrics.filter((m) => m.name === name && (threads === undefined || m.tags?.threads === threads));

describe("sysbench parser", () => {
  it("tags each cpu section with its thread count", () => {
    const m = sysbench(fixture("cpu_10000"), ctx("cpu_10000"));
    expect(pick(m, "events_per_second").map((x) => [x.tags?.threads, x.value, x.unit])).toEqual([
      ["1", 1629.75, "events/s"],
      ["2", 1851.86, "events/s"],
      ["4", 1441.3, "events/s"],
      ["8", 3171.36, "events/s"],
    ]);
    expect(pick(m, "total_time", "1")).toEqual([{ name: "total_time", value: 6.1354, unit: "s", tags: { threads: "1" } }]);
    expect(pick(m, "latency_avg_ms", "4")[0]).toMatchObject({ value: 2.77, unit: "ms" });
    expect(pick(m, "latency_p95_ms", "8")[0]).toMatchObject({ value: 12.75, unit: "ms" });
    expect(pick(m, "total_events", "2")[0]).toMatchObject({ value: 10000, unit: "events" });
    expect(m).toHaveLength(4 * 7);
  });

  it("reads memory throughput", () => {
    const m = sysbench(fixture("memory"), ctx("memory"));
    expect(pick(m, "memory_throughput")).toEqual([{ name: "memory_throughput", value: 31502.1, unit: "MiB/s", tags: { threads: "1" } }]);
    expect(pick(m, "memory_transferred")[0]).toMatchObject({ value: 63034, unit: "MiB" });
    expect(pick(m, "operations_per_second")[0]).toMatchObject({ value: 31502.1, unit: "ops/s" });
    expect(pick(m, "latency_max_ms")[0]).toMatchObject({ value: 2.09, unit: "ms" });
  });

  it("reads file I/O rates and throughput", () => {
    const m = sysbench(fixture("fileio"), ctx("fileio"));
    expect(pick(m, "reads_per_second")[0]).toMatchObject({ value: 51759.75, unit: "reads/s" });
    expect(pick(m, "writes_per_second")[0]).toMatchObject({ value: 34506.17, unit: "writes/s" });
    expect(pick(m, "fsyncs_per_second")[0]).toMatchObject({ value: 3452.32, unit: "fsyncs/s" });
    expect(pick(m, "read_throughput")[0]).toMatchObject({ value: 808.75, unit: "MiB/s" });
    expect(pick(m, "write_throughput")[0]).toMatchObject({ value: 539.16, unit: "MiB/s" });
  });

  it("leaves out the operations a sequential mode does not do, rather than report 0", () => {
    const rd = sysbench(fixture("fileio_seqrd"), ctx("fileio_seqrd"));
    expect(rd.map((x) => x.name)).toEqual(expect.arrayContaining(["reads_per_second", "read_throughput"]));
    expect(rd.filter((x) => x.name.startsWith("write") || x.name.startsWith("fsync"))).toEqual([]);
    const wr = sysbench(fixture("fileio_seqwr"), ctx("fileio_seqwr"));
    expect(pick(wr, "write_throughput")[0]!.value).toBeGreaterThan(0);
    expect(wr.filter((x) => x.name.startsWith("read"))).toEqual([]);
    for (const x of [...rd, ...wr]) if (!x.name.startsWith("latency")) expect(x.value, x.name).toBeGreaterThan(0);
  });

  it("reads the mutex test's time and latency", () => {
    const m = sysbench(fixture("mutex"), ctx("mutex"));
    expect(pick(m, "total_events", "2")[0]).toMatchObject({ value: 2, unit: "events" });
    expect(pick(m, "latency_max_ms", "2")[0]!.value).toBeGreaterThan(0);
  });

  it("reads an oltp run's transactions, queries and ignored errors beside its latency", () => {
    const m = Object.fromEntries(sysbench(fixture("oltp_read_write"), ctx("oltp_read_write")).map((x) => [x.name, [x.value, x.unit, x.tags]]));
    const tags = { threads: "2" };
    expect(m.transactions_per_second).toEqual([748.54, "tx/s", tags]);
    expect(m.queries_per_second).toEqual([14987.25, "queries/s", tags]);
    expect(m.ignored_errors).toEqual([2, "errors", tags]);
    expect(m.latency_p95_ms).toEqual([6.09, "ms", tags]);
    expect(m.events_per_second?.[0]).toBeCloseTo(1501 / 2.0047, 1);
    expect(sysbench(fixture("oltp_point_select"), ctx("oltp_point_select")).map((x) => x.name)).toContain("transactions_per_second");
  });

  it("derives events/s for the threads test, which prints none", () => {
    const m = sysbench(fixture("threads"), ctx("threads"));
    expect(pick(m, "events_per_second", "4")[0]).toMatchObject({ value: Number((2895 / 2.0011).toFixed(2)), unit: "events/s" });
    expect(pick(m, "latency_min_ms", "4")[0]).toMatchObject({ value: 0.49 });
    expect(pick(m, "latency_max_ms", "4")[0]).toMatchObject({ value: 6.2 });
  });

  it("takes the thread count from sysbench itself when there is no marker", () => {
    const unmarked = fixture("threads").replace(/^BW_SECTION.*\n/m, "");
    expect(pick(sysbench(unmarked, ctx("threads")), "total_events")[0]?.tags).toEqual({ threads: "4" });
  });

  it("gives [] for a failed run, truncated output and garbage", () => {
    expect(sysbench(fixture("failed-fileio-unprepared"), ctx("fileio"))).toEqual([]);
    const full = fixture("memory");
    expect(sysbench(full.slice(0, full.indexOf("Threads fairness")), ctx("memory"))).toEqual([]);
    expect(sysbench("", ctx("memory"))).toEqual([]);
    expect(sysbench("events per second: 12\ntotal time: 3s\n", ctx("cpu_10000"))).toEqual([]);
  });

  it("drops only the truncated section of a multi-section run", () => {
    const full = fixture("cpu_10000");
    const cut = full.slice(0, full.lastIndexOf("Threads fairness"));
    expect(new Set(sysbench(cut, ctx("cpu_10000")).map((x) => x.tags?.threads))).toEqual(new Set(["1", "2", "4"]));
  });
});
