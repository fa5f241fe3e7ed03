import { describe, expect, it } from "vitest";
import { recordedOutput } from "./recorded-output.js";
import { sockperf } from "./sockperf.js";

const { fixture, ctx } = recordedOutput("sockperf");

describe("sockperf parser", () => {
  it("reads ping-pong latency through the colour codes", () => {
    expect(fixture("tcp_latency")).toContain("\x1b[");
    expect(sockperf(fixture("tcp_latency"), ctx("tcp_latency"))).toEqual([
      { name: "latency_avg_us", value: 7.176, unit: "us" },
      { name: "latency_p99_9_us", value: 33.113, unit: "us" },
      { name: "latency_p99_us", value: 9.879, unit: "us" },
      { name: "latency_p50_us", value: 6.704, unit: "us" },
      { name: "latency_max_us", value: 1275.33, unit: "us" },
      { name: "latency_min_us", value: 6.579, unit: "us" },
    ]);
    expect(sockperf(fixture("udp_latency"), ctx("udp_latency"))[0]).toEqual({ name: "latency_avg_us", value: 7.188, unit: "us" });
  });

  it("reads message rate and bandwidth of a throughput test", () => {
    expect(sockperf(fixture("tcp_throughput"), ctx("tcp_throughput"))).toEqual([
      { name: "message_rate", value: 509117, unit: "msg/s" },
      { name: "bandwidth", value: 714.703, unit: "MiB/s" },
    ]);
    expect(sockperf(fixture("udp_throughput"), ctx("udp_throughput"))).toEqual([
      { name: "message_rate", value: 146889, unit: "msg/s" },
      { name: "bandwidth", value: 206.204, unit: "MiB/s" },
    ]);
  });

  it("gives [] for an unfinished test and garbage", () => {
    const full = fixture("tcp_latency");
    expect(sockperf(full.slice(0, full.indexOf("sockperf: Test ended")), ctx("tcp_latency"))).toEqual([]);
    expect(sockperf("sockperf: ERROR: Failed to connect to server", ctx("tcp_latency"))).toEqual([]);
    expect(sockperf("", ctx("tcp_latency"))).toEqual([]);
  });
});
