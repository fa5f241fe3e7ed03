import { describe, expect, it } from "vitest";
import { recordedOutput } from "./recorded-output.js";
import type { Metric } from "../types.js";
import { iperf3 } from "./iperf3.js";

const { fixture, ctx } = recordedOutput("iperf3");
const byName = (metrics: Metric[]) => Object.fromEntries(metrics.map((m) => [m.name, m]));

describe("iperf3 parser", () => {
  it("reads TCP throughput and retransmits", () => {
    const m = iperf3(fixture("tcp_10_1"), ctx("tcp_10_1"));
    expect(m).toEqual([
      { name: "sent_bits_per_second", value: 24184084300.5681, unit: "bit/s", tags: { protocol: "tcp" } },
      { name: "received_bits_per_second", value: 24153791142.039425, unit: "bit/s", tags: { protocol: "tcp" } },
      { name: "retransmits", value: 6, unit: "retransmits", tags: { protocol: "tcp" } },
    ]);
  });

  it("sums ten TCP streams", () => {
    const b = byName(iperf3(fixture("tcp_10_10"), ctx("tcp_10_10")));
    expect(b.sent_bits_per_second?.value).toBe(21230766000.44094);
    expect(b.received_bits_per_second?.value).toBe(21064226808.679543);
    expect(b.retransmits?.value).toBe(24);
  });

  it("reads UDP throughput, jitter and loss", () => {
    const b = byName(iperf3(fixture("udp_10_1_1"), ctx("udp_10_1_1")));
    expect(b.sent_bits_per_second).toMatchObject({ value: 1048524.0980571462, unit: "bit/s", tags: { protocol: "udp" } });
    expect(b.received_bits_per_second?.value).toBe(1048401.4411600468);
    expect(b.jitter_ms).toMatchObject({ value: 0.00747039072215557, unit: "ms" });
    expect(b.lost_percent).toMatchObject({ value: 0, unit: "%" });
    expect(b.lost_packets).toMatchObject({ value: 0, unit: "packets" });
    expect(b.retransmits).toBeUndefined();
  });

  it("gives [] for a failed test, truncated output and garbage", () => {
    expect(iperf3(fixture("failed-connect"), ctx("tcp_10_1"))).toEqual([]);
    const full = fixture("tcp_10_1");
    expect(iperf3(full.slice(0, full.length - 200), ctx("tcp_10_1"))).toEqual([]);
    expect(iperf3("iperf3: error - unable to connect to server", ctx("tcp_10_1"))).toEqual([]);
    expect(iperf3("", ctx("tcp_10_1"))).toEqual([]);
  });
});
