import { createTestSchema } from "@benchwright/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "../store/db.js";
import { openTestStore } from "../test-support/test-store.js";
import { Tokens } from "./tokens.js";

// Issue 36, point 4: a request's token is looked up once, then kept; a revocation on any server
// sharing the PostgreSQL database empties what every server keeps: on the revoking one before it
// answers, on the others as PostgreSQL delivers the revocation's notification (the revocation's
// answer waits until it came back to the revoking server, which is told with the others).
// Two servers here: two stores, each with its own pool and listening connection, on one schema.
describe("the tokens a server keeps between requests", () => {
  let schema: Awaited<ReturnType<typeof createTestSchema>>;
  const servers: Array<{ db: Db; tokens: Tokens }> = [];

  beforeAll(async () => {
    schema = await createTestSchema();
    for (let i = 0; i < 2; i++) {
      const { db, store } = await openTestStore(schema.url);
      servers.push({ db, tokens: new Tokens(store.tokens) });
    }
  }, 60_000);

  afterAll(async () => {
    for (const { db } of servers) await db.close();
    await schema.drop();
  });

  /** The principal `server` finds for `token`, and how many queries it sent the database to find it. */
  async function lookup(server: { db: Db; tokens: Tokens }, token: string) {
    const query = vi.spyOn(server.db, "query");
    try {
      const found = await server.tokens.principalOf(token);
      return { found: typeof found === "string" ? found : found.id, queries: query.mock.calls.length };
    } finally {
      query.mockRestore();
    }
  }

  /** Until the server listens for revocations (its listening connection is made), it keeps nothing. */
  async function listening(server: { db: Db; tokens: Tokens }, token: string) {
    for (let i = 0; i < 200 && (await lookup(server, token)).queries > 0; i++) await new Promise((r) => setTimeout(r, 25));
  }

  it("looks a token up once, and refuses it on every server once one of them revokes it", async () => {
    const [a, b] = servers;
    const made = await a.tokens.create({ principal: "hal", role: "operator" });
    const token = made.token!;
    await listening(a, token);
    await listening(b, token);
    expect(await lookup(a, token)).toEqual({ found: "hal", queries: 0 });
    expect(await lookup(b, token)).toEqual({ found: "hal", queries: 0 });

    await a.tokens.revoke(made.id);
    // The revoking server: at once.
    expect(await lookup(a, token)).toEqual({ found: "revoked", queries: 1 });
    // The other: from the notification on (on a loaded machine PostgreSQL may deliver it a few
    // ms after the revoking server heard it back); never from a kept row's age.
    let other = await lookup(b, token);
    for (let i = 0; i < 100 && other.found !== "revoked"; i++) {
      await new Promise((r) => setTimeout(r, 5));
      other = await lookup(b, token);
    }
    expect(other.found).toBe("revoked");
  });

  it("never keeps a token it does not know: one made on another server is known at once", async () => {
    const [a, b] = servers;
    expect((await lookup(b, "bw_not-made-yet")).found).toBe("unknown");
    const made = await a.tokens.create({ principal: "ida", role: "viewer" });
    expect((await lookup(b, made.token!)).found).toBe("ida");
  });
});
