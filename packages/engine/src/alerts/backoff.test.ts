import { describe, expect, it } from "vitest";
import { DEFAULT_RETRY_DELAYS_MS, retryDelay } from "./backoff.js";

describe("the retry schedule", () => {
  it("waits 5 s, 30 s, 2 min, 10 min, 1 h, then gives up", () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => retryDelay(n))).toEqual([5_000, 30_000, 120_000, 600_000, 3_600_000, undefined]);
    expect(DEFAULT_RETRY_DELAYS_MS).toHaveLength(5);
  });

  it("follows a schedule it is given (tests shorten it)", () => {
    expect([1, 2, 3].map((n) => retryDelay(n, [10, 20]))).toEqual([10, 20, undefined]);
    expect(retryDelay(1, [])).toBeUndefined();
  });

  it("counts attempts from 1", () => {
    expect(() => retryDelay(0)).toThrow(RangeError);
    expect(() => retryDelay(1.5)).toThrow(RangeError);
  });
});
