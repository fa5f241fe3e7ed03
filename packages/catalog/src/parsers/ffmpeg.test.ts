import { describe, expect, it } from "vitest";
import { recordedOutput } from "./recorded-output.js";
import { ffmpeg } from "./ffmpeg.js";

const { fixture, ctx } = recordedOutput("ffmpeg");

describe("ffmpeg parser", () => {
  it("reads frames and speed of the last progress block, and frames per second of the wall time", () => {
    expect(ffmpeg(fixture("x264_720p"), ctx("x264_720p"))).toEqual([
      { name: "fps", value: 125.1, unit: "frames/s" },
      { name: "frames", value: 150, unit: "frames" },
      { name: "encode_seconds", value: 1.199, unit: "s" },
      { name: "speed", value: 4.12, unit: "x" },
    ]);
    expect(ffmpeg(fixture("x264_1080p"), ctx("x264_1080p"))[0]).toEqual({ name: "fps", value: 51.37, unit: "frames/s" });
    expect(ffmpeg(fixture("x265_720p"), ctx("x265_720p"))[0]).toEqual({ name: "fps", value: 80.11, unit: "frames/s" });
  });

  it("gives [] for an unfinished run, a missing encoder and garbage", () => {
    const full = fixture("x264_720p");
    expect(ffmpeg(full.slice(0, full.indexOf("progress=end")), ctx("x264_720p"))).toEqual([]);
    expect(ffmpeg(full.replace(/^bench: utime.*$/m, ""), ctx("x264_720p"))).toEqual([]);
    expect(ffmpeg("Unknown encoder 'libx264'\n", ctx("x264_720p"))).toEqual([]);
    expect(ffmpeg("", ctx("x264_720p"))).toEqual([]);
  });
});
