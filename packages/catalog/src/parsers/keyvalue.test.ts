import { describe, expect, it } from "vitest";
import { recordedOutput } from "./recorded-output.js";
import { keyvalue } from "./keyvalue.js";

const ctx = { tool: "idle", workload: "idle0" };

describe("keyvalue parser", () => {
  it("reads metric lines anywhere in the output, with tags", () => {
    const out = [
      "[benchwright] starting",
      "BW_METRIC idle_seconds 5.004 s",
      "noise BW_METRIC not_at_line_start 1 s",
      "  BW_METRIC latency_ms 0.25 ms threads=4 op=read",
      "done",
    ].join("\n");
    expect(keyvalue(out, ctx)).toEqual([
      { name: "idle_seconds", value: 5.004, unit: "s" },
      { name: "latency_ms", value: 0.25, unit: "ms", tags: { threads: "4", op: "read" } },
    ]);
  });

  it("accepts negative and exponent values and CRLF line ends", () => {
    expect(keyvalue("BW_METRIC drift -1.5e-3 s\r\nBW_METRIC n 42 count\r\n", ctx)).toEqual([
      { name: "drift", value: -0.0015, unit: "s" },
      { name: "n", value: 42, unit: "count" },
    ]);
  });

  it("skips malformed lines whole and never invents metrics", () => {
    const bad = [
      "BW_METRIC",
      "BW_METRIC name_only",
      "BW_METRIC no_unit 3",
      "BW_METRIC not_a_number abc s",
      "BW_METRIC nan NaN s",
      "BW_METRIC inf Infinity s",
      "BW_METRIC hex 0x10 s",
      "BW_METRIC bad_tag 1 s threads",
      "BW_METRIC 9starts_with_digit 1 s",
      "BW_METRICx 1 s",
    ].join("\n");
    expect(keyvalue(bad, ctx)).toEqual([]);
    expect(keyvalue("", ctx)).toEqual([]);
    expect(keyvalue("\u0000\u0001 garbage {]", ctx)).toEqual([]);
  });
});

describe("keyvalue parser on the compression tool's recorded output", () => {
  const { fixture } = recordedOutput("compression");

  it("reads speed, time and ratio, tagged with compressor, level and threads", () => {
    const tags = { compressor: "zstd", level: "3", threads: "1" };
    expect(keyvalue(fixture("zstd_compress"), { tool: "compression", workload: "zstd_compress" })).toEqual([
      { name: "compress_speed", value: 157.35, unit: "MB/s", tags },
      { name: "compress_seconds", value: 0.853, unit: "s", tags },
      { name: "compression_ratio", value: 3.816, unit: "ratio", tags },
    ]);
    expect(keyvalue(fixture("xz_decompress"), { tool: "compression", workload: "xz_decompress" })[0]).toEqual({
      name: "decompress_speed",
      value: 70.2,
      unit: "MB/s",
      tags: { compressor: "xz", level: "1", threads: "1" },
    });
  });
});
