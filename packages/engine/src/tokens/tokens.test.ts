import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BenchwrightError } from "../errors.js";
import type { Db } from "../store/db.js";
import type { Store } from "../store/store.js";
import { openTestStore } from "../test-support/test-store.js";
import { Tokens } from "./tokens.js";

describe("making a token", () => {
  let db: Db;
  let store: Store;
  let tokens: Tokens;
  beforeAll(async () => {
    ({ db, store } = await openTestStore());
    tokens = new Tokens(store.tokens);
  }, 60_000);
  afterAll(() => db.close());

  const refusal = (made: Promise<unknown>) =>
    made.then(
      () => undefined,
      (e: BenchwrightError) => ({ code: e.code, detail: e.detail, errors: e.extras.errors }),
    );

  it("refuses the principals the server names itself, and makes none", async () => {
    for (const principal of ["bootstrap", "anonymous"]) {
      expect(await refusal(tokens.create({ principal, role: "admin" }))).toEqual({
        code: "validation_failed",
        detail: `/body/principal is a name the server gives principals itself (bootstrap, anonymous); name another`,
        errors: [{ path: "/body/principal", message: expect.stringContaining("name another") }],
      });
    }
    expect((await tokens.list()).items).toEqual([]);
  });

  it("refuses an expiry that is not in the future, by the clock it is given", async () => {
    const now = new Date("2026-11-28T08:00:00Z");
    for (const expires of ["2026-11-28T07:59:59Z", "2026-11-28T08:00:00Z", "2020-01-01T00:00:00Z"]) {
      expect(await refusal(tokens.create({ principal: "ci", role: "viewer", expires }, now))).toEqual({
        code: "validation_failed",
        detail: "/body/expires is not in the future (it is 2026-11-28 08:00:00 UTC now)",
        errors: [{ path: "/body/expires", message: "is not in the future (it is 2026-11-28 08:00:00 UTC now)" }],
      });
    }
    expect((await tokens.list()).items).toEqual([]);
    const made = await tokens.create({ principal: "ci", role: "viewer", expires: "2026-11-28T08:00:01Z" }, now);
    expect(made.expires).toBe("2026-11-28 08:00:01");
  });
});
