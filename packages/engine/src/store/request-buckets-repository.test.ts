import { createTestSchema } from "@benchwright/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "./db.js";
import { migrate } from "./migrations.js";
import { openDb } from "./open-db.js";
import { RequestBucketsRepository } from "./request-buckets-repository.js";
import { testPgliteImage } from "@benchwright/testing/pglite-image";

// The rate limit's token buckets: a principal's burst goes, the rest waits for the refill, and
// two stores on one PostgreSQL (two servers) take from the same bucket.
for (const kind of ["pglite", "postgres"] as const) {
  describe(`the request buckets on ${kind}`, () => {
    let dbs: Db[] = [];
    let a: RequestBucketsRepository;
    let b: RequestBucketsRepository;
    let dropSchema = async () => {};

    beforeAll(async () => {
      if (kind === "pglite") dbs = [await openDb({ pgliteDir: "memory://", pgliteImage: testPgliteImage() })];
      else {
        const schema = await createTestSchema();
        dropSchema = schema.drop;
        dbs = [await openDb({ databaseUrl: schema.url }), await openDb({ databaseUrl: schema.url })];
      }
      await migrate(dbs[0]!);
      a = new RequestBucketsRepository(dbs[0]!);
      b = new RequestBucketsRepository(dbs[dbs.length - 1]!);
    }, 60_000);
    afterAll(async () => {
      for (const db of dbs) await db.close();
      await dropSchema();
    });

    it("lets a burst through, refuses the next with the wait until a token, and refills at the rate", async () => {
      // 1 token a second: the wait is a token less what refilled while the takes ran (milliseconds
      // alone, over 0.1 s on a loaded CI machine: a fixed 0.9 s bound failed there).
      const takes: Array<Awaited<ReturnType<typeof a.take>>> = [];
      const started = performance.now();
      for (let i = 0; i < 5; i++) takes.push(await (i % 2 ? b : a).take("alice", 1, 3));
      const tookS = (performance.now() - started) / 1000;
      expect(takes.map((t) => t.allowed)).toEqual([true, true, true, false, false]);
      expect(takes[3]!.retryAfterS).toBeGreaterThan(Math.min(0.9, 1 - tookS - 0.01));
      expect(takes[3]!.retryAfterS).toBeLessThanOrEqual(1);
      // Another principal has its own bucket.
      expect((await b.take("bob", 1, 3)).allowed).toBe(true);
      // A refused request took nothing: after the wait it said, one goes.
      await new Promise((r) => setTimeout(r, takes[4]!.retryAfterS * 1000 + 50));
      expect((await a.take("alice", 1, 3)).allowed).toBe(true);
      expect((await b.take("alice", 1, 3)).allowed).toBe(false);
    });

    it("holds the rate when both take at once", async () => {
      // 40 requests at once, spread over both stores, with a burst of 10 at 10 a second.
      const started = Date.now();
      const takes = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? b : a).take("carol", 10, 10)));
      const seconds = (Date.now() - started) / 1000;
      const allowed = takes.filter((t) => t.allowed).length;
      expect(allowed).toBeGreaterThanOrEqual(10);
      expect(allowed).toBeLessThanOrEqual(10 + Math.ceil(10 * seconds));
    });
  });
}
