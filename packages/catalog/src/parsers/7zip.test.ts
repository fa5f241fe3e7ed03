import { describe, expect, it } from "vitest";
import { recordedOutput } from "./recorded-output.js";
import { sevenZip } from "./7zip.js";

const { fixture, ctx } = recordedOutput("7zip");

describe("7-Zip benchmark parser", () => {
  it("reads the mean speeds and ratings, and the total", () => {
    expect(sevenZip(fixture("single_thread"), ctx("single_thread"))).toEqual([
      { name: "compress_speed", value: 5571, unit: "KiB/s" },
      { name: "compress_rating", value: 4964, unit: "MIPS" },
      { name: "decompress_speed", value: 47395, unit: "KiB/s" },
      { name: "decompress_rating", value: 3833, unit: "MIPS" },
      { name: "cpu_usage", value: 93, unit: "%" },
      { name: "total_rating", value: 4398, unit: "MIPS" },
    ]);
    expect(sevenZip(fixture("multi_thread"), ctx("multi_thread")).find((m) => m.name === "total_rating")?.value).toBe(6161);
  });

  it("gives [] for an unfinished run and garbage", () => {
    const full = fixture("single_thread");
    expect(sevenZip(full.slice(0, full.indexOf("Tot:")), ctx("single_thread"))).toEqual([]);
    expect(sevenZip("ERROR: Can't allocate required memory!", ctx("single_thread"))).toEqual([]);
    expect(sevenZip("", ctx("single_thread"))).toEqual([]);
  });
});
