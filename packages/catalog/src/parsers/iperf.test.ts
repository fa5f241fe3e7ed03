import { describe, expect, it } from "vitest";
import { recordedOutput } from "./recorded-output.js";
import { iperf } from "./iperf.js";

const { fixture, ctx } = recordedOutput("iperf");

describe("iperf (2) parser", () => {
  it("reads one stream's throughput and bytes", () => {
    expect(iperf(fixture("tcp_1"), ctx("tcp_10_1"))).toEqual([
      { name: "bits_per_second", value: 19096510203, unit: "bit/s" },
      { name: "transferred_bytes", value: 4780458044, unit: "bytes" },
      { name: "streams", value: 1, unit: "streams" },
    ]);
  });

  it("sums parallel streams", () => {
    const metrics = iperf(fixture("tcp_4"), ctx("tcp_10_4"));
    expect(metrics[0]).toEqual({ name: "bits_per_second", value: 9247186639 + 7722757221 + 7019916142 + 7513498680, unit: "bit/s" });
    expect(metrics[2]).toEqual({ name: "streams", value: 4, unit: "streams" });
  });

  it("takes a sum line where the version prints one, and a stream's whole run over its intervals", () => {
    const lines = [
      "20261125000000,10.0.0.2,40000,10.0.0.1,5001,3,0.0-1.0,100,800",
      "20261125000000,10.0.0.2,40000,10.0.0.1,5001,3,0.0-2.0,250,1000",
      "20261125000000,10.0.0.2,40001,10.0.0.1,5001,4,0.0-2.0,250,1000",
      "20261125000000,10.0.0.2,0,10.0.0.1,5001,-1,0.0-2.0,500,2000",
    ];
    expect(iperf(lines.join("\n"), ctx("tcp_10_4"))).toEqual([
      { name: "bits_per_second", value: 2000, unit: "bit/s" },
      { name: "transferred_bytes", value: 500, unit: "bytes" },
      { name: "streams", value: 2, unit: "streams" },
    ]);
  });

  it("gives [] for a client that could not connect, and for garbage", () => {
    expect(iperf("connect failed: Connection refused", ctx("tcp_10_1"))).toEqual([]);
    expect(iperf("", ctx("tcp_10_1"))).toEqual([]);
  });
});
