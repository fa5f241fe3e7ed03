import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { EngineLog } from "./engine-log.js";
import { LeaseLoop, leaseOwner } from "./lease-loop.js";

/** A loop whose looks are counted, with the time of the test's own fake clock. */
function loopOf(look: () => Promise<unknown>, everyMs = 1_000) {
  const warnings: string[] = [];
  const log: EngineLog = (message) => void warnings.push(message);
  return { loop: new LeaseLoop({ look, everyMs, log, what: "the test look" }), warnings };
}

describe("LeaseLoop", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it("looks at once after start, then every period after each look ended", async () => {
    let looks = 0;
    const { loop } = loopOf(async () => void looks++);
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(looks).toBe(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(looks).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(looks).toBe(2);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(looks).toBe(5);
    await loop.stop();
  });

  it("waits what a look answers instead of the period", async () => {
    let looks = 0;
    const { loop } = loopOf(async () => {
      looks++;
      return 50;
    });
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(100);
    expect(looks).toBe(3);
    await loop.stop();
  });

  it("never overlaps looks: a wake-up during a look looks after it", async () => {
    let running = 0;
    let most = 0;
    let release: () => void = () => {};
    const { loop } = loopOf(async () => {
      running++;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      running--;
    });
    const first = loop.wake();
    const second = loop.wake();
    await vi.advanceTimersByTimeAsync(0);
    release();
    await first;
    await vi.advanceTimersByTimeAsync(0);
    release();
    await second;
    expect(most).toBe(1);
    await loop.stop();
  });

  it("logs a failed look and goes on looking", async () => {
    let looks = 0;
    const { loop, warnings } = loopOf(async () => {
      looks++;
      if (looks === 1) throw new Error("database gone");
    });
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(warnings).toEqual(["the test look failed: database gone"]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(looks).toBe(2);
    await loop.stop();
  });

  it("looks no more once stopped, and stop waits for the look under way", async () => {
    let looks = 0;
    let ended = false;
    let release: () => void = () => {};
    const { loop } = loopOf(async () => {
      looks++;
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      ended = true;
    });
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    const stopping = loop.stop();
    expect(loop.stopped).toBe(true);
    release();
    await stopping;
    expect(ended).toBe(true);
    await vi.advanceTimersByTimeAsync(10_000);
    await loop.wake();
    expect(looks).toBe(1);
  });

  it("runs queued work in its turn, between looks", async () => {
    const order: string[] = [];
    const { loop } = loopOf(async () => void order.push("look"));
    const looked = loop.wake();
    loop.queue(async () => void order.push("work"));
    const again = loop.wake();
    await looked;
    await again;
    expect(order).toEqual(["look", "work", "look"]);
  });

  it("names a distinct owner for each worker of this process", () => {
    const a = leaseOwner();
    const b = leaseOwner();
    expect(a).toMatch(new RegExp(`:${process.pid}:[0-9a-f]{8}$`));
    expect(a).not.toBe(b);
  });
});
