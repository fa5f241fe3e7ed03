import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditWhereOf } from "../lists/list-query.js";
import { auditCursor } from "../lists/cursor.js";
import type { AuditRecord } from "../model/audit.js";
import { AuditRepository } from "./audit-repository.js";
import type { Db } from "./db.js";
import { migrate } from "./migrations.js";
import { openDb } from "./open-db.js";
import { testPgliteImage } from "@benchwright/testing/pglite-image";

// The audit log as the lists read it: newest first, each filter keeping only what matches.
describe("the audit log", () => {
  let db: Db;
  let audit: AuditRepository;
  const entry = (over: Partial<AuditRecord>): AuditRecord => ({
    principal: "bootstrap",
    operation: "createSession",
    method: "POST",
    path: "/api/v1/sessions/",
    status: 200,
    code: null,
    requestId: "r",
    ...over,
  });

  beforeAll(async () => {
    db = await openDb({ pgliteDir: "memory://", pgliteImage: testPgliteImage() });
    await migrate(db);
    audit = new AuditRepository(db);
    // Times are filtered to the millisecond: the entries are a few apart.
    const later = () => new Promise((r) => setTimeout(r, 3));
    await audit.append(entry({ requestId: "r1" }));
    await later();
    await audit.append(entry({ requestId: "r2", principal: "alice", status: 400, code: "unknown_provider" }));
    await later();
    await audit.append(entry({ requestId: "r3", operation: "deleteSession", method: "DELETE", path: "/api/v1/sessions/x", status: 204 }));
    await later();
    await audit.append(entry({ requestId: "r4", operation: null, path: "/api/v1/nowhere", status: 404, code: "not_found" }));
  });
  afterAll(async () => db?.close());

  const ids = async (query: Parameters<typeof auditWhereOf>[0]) => (await audit.page(auditWhereOf(query))).map((r) => r.request_id);

  it("lists newest first, filtered by principal, operation and outcome", async () => {
    expect(await ids({})).toEqual(["r4", "r3", "r2", "r1"]);
    expect(await ids({ principal: "alice" })).toEqual(["r2"]);
    expect(await ids({ operation: "createSession" })).toEqual(["r2", "r1"]);
    expect(await ids({ outcome: "failure" })).toEqual(["r4", "r2"]);
    expect(await ids({ outcome: "success", operation: "createSession" })).toEqual(["r1"]);
    const [row] = await audit.page(auditWhereOf({ principal: "alice" }));
    expect(row).toMatchObject({ principal: "alice", operation: "createSession", method: "POST", status: 400, code: "unknown_provider" });
    expect(row!.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  it("filters by time and pages by cursor", async () => {
    const rows = await audit.page(auditWhereOf({}));
    expect(await ids({ since: rows[1]!.at })).toEqual(["r4", "r3"]);
    expect(await ids({ until: rows[1]!.at })).toEqual(["r2", "r1"]);
    expect(await ids({ since: "2999-01-01" })).toEqual([]);
    // A page of 2 reads 3 rows (to know there is more); the next starts after the last of the page.
    expect(await ids({ limit: 2 })).toEqual(["r4", "r3", "r2"]);
    expect(await ids({ limit: 2, cursor: auditCursor(rows[1]!.seq) })).toEqual(["r2", "r1"]);
  });

  it("refuses a time or cursor it cannot read, naming the parameter", () => {
    expect(() => auditWhereOf({ since: "yesterday" })).toThrow(/^since must be an ISO 8601/);
    expect(() => auditWhereOf({ until: "2026-02-30" })).toThrow(/^until must be an ISO 8601/);
    expect(() => auditWhereOf({ cursor: auditCursor("1").replace(/./, "x") })).toThrow();
  });

  it("pages newest first by the order of writing, past a seq of more digits (9, then 10 and on)", async () => {
    // On the file's own log (its four entries r1-r4 first): no second database to migrate.
    for (let i = 1; i <= 12; i++) await audit.append(entry({ requestId: `e${i}` }));
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const rows = await audit.page(auditWhereOf({ limit: 5, cursor }));
      seen.push(...rows.slice(0, 5).map((r) => r.request_id));
      cursor = rows.length > 5 ? auditCursor(rows[4]!.seq) : undefined;
    } while (cursor);
    expect(seen).toEqual(["e12", "e11", "e10", "e9", "e8", "e7", "e6", "e5", "e4", "e3", "e2", "e1", "r4", "r3", "r2", "r1"]);
  });
});
