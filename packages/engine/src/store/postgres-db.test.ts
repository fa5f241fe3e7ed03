import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestSchema, startTcpProxy, type TcpProxy } from "@benchwright/testing";
import type { Db } from "./db.js";
import { openPostgres } from "./postgres-db.js";

// A pooled connection cut while idle: the next query is handed it before the pool hears of the cut.
describe("the PostgreSQL pool after its idle connections are cut", () => {
  let drop = async () => {};
  let proxy: TcpProxy;
  let db: Db;

  beforeAll(async () => {
    const schema = await createTestSchema();
    drop = schema.drop;
    const target = new URL(schema.url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    target.port = String(proxy.port);
    db = openPostgres(target.toString());
    await db.query("CREATE TABLE t (n int)");
  }, 60_000);
  afterAll(async () => {
    await db?.close();
    await proxy?.close();
    await drop();
  });

  it("answers a read on a fresh connection", async () => {
    await db.query("SELECT 1");
    // Cut and back in one tick: the pool's idle client is dead, and nothing has told it yet.
    proxy.cut();
    proxy.restore();
    expect(await db.query<{ n: number }>("SELECT 1 AS n")).toEqual([{ n: 1 }]);
  });

  it("fails a write as unavailable rather than send it twice", async () => {
    await db.query("SELECT 1");
    proxy.cut();
    proxy.restore();
    await expect(db.query("INSERT INTO t VALUES (1)")).rejects.toMatchObject({ code: "unavailable" });
    expect(await db.query("SELECT n FROM t")).toEqual([]);
  });
});
