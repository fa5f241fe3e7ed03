import { describe, expect, it } from "vitest";
import { recordedOutput } from "./recorded-output.js";
import { wrk } from "./wrk.js";

const { fixture, ctx } = recordedOutput("wrk");

describe("wrk parser", () => {
  it("reads the rate, the bytes, the latency in ms whatever its unit, and no errors", () => {
    const metrics = Object.fromEntries(wrk(fixture("small"), ctx("small_c16")).map((m) => [m.name, [m.value, m.unit]]));
    expect(metrics).toEqual({
      requests_per_second: [65286.46, "req/s"],
      transfer_bytes_per_second: [9.34 * 1024 ** 2, "bytes/s"],
      latency_avg_ms: [0.59639, "ms"],
      latency_p50_ms: [0.203, "ms"],
      latency_p75_ms: [0.27, "ms"],
      latency_p90_ms: [1.25, "ms"],
      latency_p99_ms: [8.57, "ms"],
      errors: [0, "requests"],
    });
  });

  it("reads sizes in binary multiples", () => {
    const transfer = wrk(fixture("file_64k"), ctx("file_64k_c16")).find((m) => m.name === "transfer_bytes_per_second");
    expect(transfer?.value).toBeCloseTo(1.44 * 1024 ** 3, 0);
  });

  it("counts socket errors and answers other than 2xx or 3xx", () => {
    const text = `${fixture("small")}  Socket errors: connect 2, read 3, write 0, timeout 5\n  Non-2xx or 3xx responses: 7\n`;
    expect(wrk(text, ctx("small_c16")).find((m) => m.name === "errors")?.value).toBe(17);
  });

  it("gives [] when the run did not finish, and for garbage", () => {
    expect(wrk("unable to connect to 10.0.0.1:80 Connection refused", ctx("small_c16"))).toEqual([]);
    expect(wrk(fixture("small").split("Requests/sec")[0]!, ctx("small_c16"))).toEqual([]);
  });
});
