import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "../store/db.js";
import type { Store } from "../store/store.js";
import { openTestStore } from "../test-support/test-store.js";
import { TokenWatch } from "./token-watch.js";
import { Tokens } from "./tokens.js";

describe("the end of what a token holds open", () => {
  let db: Db;
  let store: Store;
  let tokens: Tokens;
  beforeAll(async () => {
    ({ db, store } = await openTestStore());
    tokens = new Tokens(store.tokens);
  }, 60_000);
  afterAll(() => db.close());
  afterEach(() => vi.useRealTimers());

  const aborted = (signal: AbortSignal) => new Promise<string>((r) => signal.addEventListener("abort", () => r(String((signal.reason as Error).message))));

  it("comes at the token's expiry, by the clock", async () => {
    vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"] });
    vi.setSystemTime(new Date("2026-11-28T08:00:00Z"));
    const made = await tokens.create({ principal: "eve", role: "viewer", expires: "2026-11-28T09:00:00Z" });
    const watch = new TokenWatch(db);
    const { signal } = await watch.watch({ id: made.id, expires: new Date("2026-11-28T09:00:00Z") });
    await vi.advanceTimersByTimeAsync(60 * 60_000 - 1);
    expect(signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe("expired");
  });

  it("comes at once for a token already expired", async () => {
    const { signal } = await new TokenWatch(db).watch({ id: "00000000-0000-4000-8000-000000000000", expires: new Date(Date.now() - 1) });
    expect(signal.aborted).toBe(true);
  });

  it("comes at the token's revocation, told through the database, and only for that token", async () => {
    const [one, other] = [await tokens.create({ principal: "fay", role: "viewer" }), await tokens.create({ principal: "gus", role: "viewer" })];
    const watch = new TokenWatch(db);
    const first = await watch.watch({ id: one.id, expires: null });
    const second = await watch.watch({ id: other.id, expires: null });
    const ended = aborted(first.signal);
    await tokens.revoke(one.id);
    expect(await ended).toBe("revoked");
    expect(second.signal.aborted).toBe(false);
    // Revoked before it was watched: ended at once.
    expect((await watch.watch({ id: one.id, expires: null })).signal.aborted).toBe(true);
    second.release();
  });
});
