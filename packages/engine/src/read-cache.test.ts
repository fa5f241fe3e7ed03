import { describe, expect, it } from "vitest";
import { ReadCache } from "./read-cache.js";
import { CommitProbe } from "./store/commit-probe.js";
import { WriteClock } from "./store/write-clock.js";

describe("ReadCache", () => {
  const counting = () => {
    let calls = 0;
    return { compute: async () => ({ n: ++calls, list: [{ a: 1 }] }), calls: () => calls };
  };

  it("keeps a value until a write to one of its tables, not to another", async () => {
    const clock = new WriteClock();
    const cache = new ReadCache(() => clock, ["executions"]);
    const c = counting();
    expect((await cache.get("k", c.compute)).n).toBe(1);
    expect((await cache.get("k", c.compute)).n).toBe(1);
    clock.saw("INSERT INTO events (id) VALUES (1)");
    expect((await cache.get("k", c.compute)).n).toBe(1);
    clock.saw("UPDATE executions SET state = 'x'");
    expect((await cache.get("k", c.compute)).n).toBe(2);
  });

  it("never keeps what was computed across a write", async () => {
    const clock = new WriteClock();
    const cache = new ReadCache(() => clock, ["steps"]);
    let release!: () => void;
    const slow = cache.get("k", () => new Promise<number>((r) => (release = () => r(1))));
    clock.saw("DELETE FROM steps");
    release();
    expect(await slow).toBe(1);
    expect(await cache.get("k", async () => 2)).toBe(2);
  });

  it("computes once for requests that arrive together", async () => {
    const cache = new ReadCache(() => new WriteClock(), []);
    const c = counting();
    const [a, b] = await Promise.all([cache.get("k", c.compute), cache.get("k", c.compute)]);
    expect(a).toBe(b);
    expect(c.calls()).toBe(1);
  });

  it("keeps no failure", async () => {
    const cache = new ReadCache(() => new WriteClock(), []);
    await expect(cache.get("k", async () => Promise.reject(new Error("away")))).rejects.toThrow("away");
    expect(await cache.get("k", async () => "back")).toBe("back");
  });

  it("freezes what it keeps, all the way down", async () => {
    const cache = new ReadCache(() => new WriteClock(), []);
    const value = await cache.get("k", async () => ({ list: [{ a: 1 }] }));
    expect(Object.isFrozen(value) && Object.isFrozen(value.list) && Object.isFrozen(value.list[0])).toBe(true);
  });

  it("keeps nothing without a clock (a database other processes write)", async () => {
    const cache = new ReadCache(() => undefined, []);
    const c = counting();
    await cache.get("k", c.compute);
    const second = await cache.get("k", c.compute);
    expect(second.n).toBe(2);
    expect(Object.isFrozen(second)).toBe(false);
  });

  it("stays within its number of entries", async () => {
    const cache = new ReadCache(() => new WriteClock(), [], 3);
    const c = counting();
    for (const key of ["a", "b", "c", "d"]) await cache.get(key, c.compute);
    expect((await cache.get("d", c.compute)).n).toBe(4);
    expect((await cache.get("a", c.compute)).n).toBe(5);
  });

  it("keeps a value while a shared database's probe says nothing committed", async () => {
    let snapshot = "1:1:";
    const cache = new ReadCache(() => new CommitProbe(async () => snapshot), ["executions"]);
    const c = counting();
    expect((await cache.get("k", c.compute)).n).toBe(1);
    expect((await cache.get("k", c.compute)).n).toBe(1);
    snapshot = "1:2:";
    expect((await cache.get("k", c.compute)).n).toBe(2);
    expect(Object.isFrozen(await cache.get("k", c.compute))).toBe(true);
  });

  it("never keeps, under a shared database's probe, what was computed across a commit", async () => {
    let snapshot = "1:1:";
    const cache = new ReadCache(() => new CommitProbe(async () => snapshot), []);
    let release!: () => void;
    const slow = cache.get("k", () => new Promise<number>((r) => (release = () => r(1))));
    await new Promise((r) => setTimeout(r, 0));
    snapshot = "1:2:";
    release();
    expect(await slow).toBe(1);
    expect(await cache.get("k", async () => 2)).toBe(2);
  });
});

describe("CommitProbe", () => {
  it("answers every caller with a probe begun after it asked, one for those that ask while one is under way", async () => {
    const started: Array<(token: string) => void> = [];
    const probe = new CommitProbe(() => new Promise<string>((r) => started.push(r)));
    const first = probe.token();
    const [second, third] = [probe.token(), probe.token()];
    expect(started).toHaveLength(1);
    started[0]("a");
    expect(await first).toBe("a");
    await new Promise((r) => setTimeout(r, 0));
    // The two that asked during the first share the next one.
    expect(started).toHaveLength(2);
    started[1]("b");
    expect([await second, await third]).toEqual(["b", "b"]);
    const fourth = probe.token();
    expect(started).toHaveLength(3);
    started[2]("c");
    expect(await fourth).toBe("c");
  });

  it("passes a failure on to those who shared the probe, and probes again for the next", async () => {
    let fail = true;
    const probe = new CommitProbe(async () => {
      if (fail) throw new Error("away");
      return "t";
    });
    await expect(probe.token()).rejects.toThrow("away");
    fail = false;
    expect(await probe.token()).toBe("t");
  });
});
