import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Engine } from "@benchwright/engine";
import { createTestSchema } from "@benchwright/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app.js";
import { listen, type Listening } from "../test-support/raw-http.js";

// Two servers on one real PostgreSQL: a token made on one works on the other, and once revoked
// on one it is refused by the other on the very next request (each request reads the token's
// record from the database; nothing is cached).

const REPO_CONFIG = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../config");
const BOOT = "boot-token-for-revocation-test";

describe("a token revoked on one server", () => {
  let schema: Awaited<ReturnType<typeof createTestSchema>>;
  const engines: Engine[] = [];
  const servers: Listening[] = [];
  const dirs: string[] = [];

  beforeAll(async () => {
    schema = await createTestSchema();
    const configDir = mkdtempSync(join(tmpdir(), "bw-revoke-config-"));
    cpSync(REPO_CONFIG, configDir, { recursive: true });
    mkdirSync(join(configDir, "benchmarks"), { recursive: true });
    dirs.push(configDir);
    for (let i = 0; i < 2; i++) {
      const dataDir = mkdtempSync(join(tmpdir(), "bw-revoke-"));
      dirs.push(dataDir);
      const engine = await Engine.open({ dataDir, configDir, databaseUrl: schema.url, work: false, webhooks: { deliver: false } });
      engines.push(engine);
      servers.push(await listen(createApp({ engine, token: BOOT, validateResponses: true })));
    }
  });

  afterAll(async () => {
    for (const s of servers) await s.close();
    for (const e of engines) await e.close();
    await schema?.drop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("is refused by the other at once", async () => {
    const [a, b] = servers;
    const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
    const made = await a.send("POST", "/api/v1/admin/tokens/", {
      headers: { ...auth(BOOT), "Content-Type": "application/json" },
      body: JSON.stringify({ principal: "carol", role: "viewer" }),
    });
    expect(made.status, made.text).toBe(201);
    const { id, token } = made.json as { id: string; token: string };
    expect((await b.send("GET", "/api/v1/sessions/", { headers: auth(token) })).status).toBe(200);
    expect((await a.send("DELETE", `/api/v1/admin/tokens/${id}`, { headers: auth(BOOT) })).status).toBe(204);
    const refused = await b.send("GET", "/api/v1/sessions/", { headers: auth(token) });
    expect(refused.status).toBe(401);
    expect(refused.json).toMatchObject({ code: "unauthorized" });
    expect((refused.json as { detail: string }).detail).toContain("revoked");
    const record = (await b.send("GET", `/api/v1/admin/tokens/${id}`, { headers: auth(BOOT) })).json as { revoked: string | null };
    expect(record.revoked).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it("ends the token's open event streams on the other server at once", async () => {
    const [a, b] = servers;
    const made = await a.send("POST", "/api/v1/admin/tokens/", {
      headers: { Authorization: `Bearer ${BOOT}`, "Content-Type": "application/json" },
      body: JSON.stringify({ principal: "dave", role: "viewer" }),
    });
    const { id, token } = made.json as { id: string; token: string };
    const opened = await fetch(`http://127.0.0.1:${b.port}/api/v1/events`, { headers: { Authorization: `Bearer ${token}`, Accept: "text/event-stream" } });
    expect(opened.status).toBe(200);
    const reader = opened.body!.getReader();
    await reader.read(); // the stream's first lines: it is open
    const ended = (async () => {
      for (;;) if ((await reader.read()).done) return true;
    })();
    expect(await Promise.race([ended, new Promise((r) => setTimeout(() => r(false), 300))])).toBe(false);
    expect((await a.send("DELETE", `/api/v1/admin/tokens/${id}`, { headers: { Authorization: `Bearer ${BOOT}` } })).status).toBe(204);
    // Told by NOTIFY, not found at a keepalive (every 15 s): well within the 10 s given here.
    expect(await Promise.race([ended, new Promise((r) => setTimeout(() => r(false), 10_000))])).toBe(true);
  });
});
