import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { pollUntil } from "./poll.js";

describe("pollUntil", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("calls now, then each interval, until the call answers false", async () => {
    const answers = [true, true, false];
    const tick = vi.fn(async () => answers.shift()!);
    const done = pollUntil(new AbortController().signal, 1000, tick);
    await vi.advanceTimersByTimeAsync(0);
    expect(tick).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(tick).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(tick).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(5000);
    await done;
    expect(tick).toHaveBeenCalledTimes(3);
  });

  it("keeps going past a failed call, and stops when the signal aborts", async () => {
    const aborter = new AbortController();
    let calls = 0;
    const done = pollUntil(aborter.signal, 100, async () => {
      calls++;
      if (calls === 1) throw new Error("the server went away");
      return true;
    });
    await vi.advanceTimersByTimeAsync(250);
    expect(calls).toBe(3);
    aborter.abort();
    await done;
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toBe(3);
  });

  it("waits for a slow call to end before the next interval begins: never two at once", async () => {
    let running = 0;
    let most = 0;
    const aborter = new AbortController();
    void pollUntil(aborter.signal, 100, async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 500));
      running--;
      return true;
    });
    await vi.advanceTimersByTimeAsync(2000);
    aborter.abort();
    expect(most).toBe(1);
  });
});
