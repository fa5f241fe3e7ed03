import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app.js";
import { openFixture, type Fixture } from "../test-support/fixture.js";

const TOKEN = "s3cret-token-for-the-ui";

describe("the web dashboard at /ui/", () => {
  let fx: Fixture;
  let built: string;

  beforeAll(async () => {
    fx = await openFixture();
    built = mkdtempSync(join(tmpdir(), "bw-web-"));
    mkdirSync(join(built, "assets"));
    writeFileSync(join(built, "index.html"), '<!doctype html><script type="module" src="./assets/index-abc.js"></script>');
    writeFileSync(join(built, "assets", "index-abc.js"), "console.log('dashboard')");
  }, 60_000);
  afterAll(async () => {
    await fx?.close();
    rmSync(built, { recursive: true, force: true });
  });

  it("serves the build without the token, while the API keeps asking for it", async () => {
    const app = request(createApp({ engine: fx.engine, token: TOKEN, webUiDir: built }));
    const page = await app.get("/ui/").expect(200);
    expect(page.type).toBe("text/html");
    expect(page.headers["cache-control"]).toBe("no-cache");
    const asset = await app.get("/ui/assets/index-abc.js").expect(200);
    expect(asset.headers["cache-control"]).toContain("immutable");
    await app.get("/api/v1/sessions/").expect(401);
    await app.get("/api/v1/sessions/").set("Authorization", `Bearer ${TOKEN}`).expect(200);
  });

  it("sends the page and its assets with a CSP that keeps its calls on its origin and the API origins configured, and the usual security headers", async () => {
    for (const [origins, connect] of [
      [undefined, "connect-src 'self';"],
      [["http://127.0.0.1:4010"], "connect-src 'self' http://127.0.0.1:4010;"],
    ] as const) {
      const app = request(createApp({ engine: fx.engine, token: TOKEN, webUiDir: built, uiApiOrigins: origins }));
      for (const path of ["/ui/", "/ui/assets/index-abc.js", "/ui/missing.js"]) {
        const answer = await app.get(path);
        const csp = String(answer.headers["content-security-policy"]);
        expect(csp, path).toContain(connect);
        for (const directive of ["default-src 'self'", "script-src 'self'", "frame-ancestors 'none'", "object-src 'none'", "base-uri 'none'"])
          expect(csp, path).toContain(directive);
        expect(answer.headers).toMatchObject({ "x-content-type-options": "nosniff", "referrer-policy": "no-referrer", "x-frame-options": "DENY" });
      }
    }
  });

  it("sends /ui to /ui/ (its assets are relative), query kept", async () => {
    const app = request(createApp({ engine: fx.engine, webUiDir: built }));
    const answer = await app.get("/ui?api=http://127.0.0.1:4010").expect(301);
    expect(answer.headers.location).toBe("/ui/?api=http://127.0.0.1:4010");
  });

  it("sends the server's root to the dashboard, token or not (the page asks for it)", async () => {
    const app = request(createApp({ engine: fx.engine, token: TOKEN, webUiDir: built }));
    const answer = await app.get("/").set("Accept", "text/html").expect(302);
    expect(answer.headers.location).toBe("/ui/");
    expect((await app.get("/").expect(302)).headers.location).toBe("/ui/");
    await app.post("/").expect(404);
  });

  it("answers a file it does not have, or another method, with the API's 404 problem", async () => {
    const app = request(createApp({ engine: fx.engine, webUiDir: built }));
    const missing = await app.get("/ui/nothing.js").expect(404);
    expect(missing.body.code).toBe("not_found");
    await app.post("/ui/").expect(404);
  });

  it("starts without a build, and says at /ui/ how to make one", async () => {
    const app = request(createApp({ engine: fx.engine, webUiDir: join(built, "missing") }));
    const answer = await app.get("/ui/").expect(404);
    expect(answer.type).toBe("application/problem+json");
    expect(answer.body.detail).toContain("npm run build");
    await app.get("/api/v1/benchmarks/").expect(200);
  });

  it("serves a build made after the server started (npm start builds the dashboard once it listens)", async () => {
    const later = mkdtempSync(join(tmpdir(), "bw-web-later-"));
    try {
      const app = request(createApp({ engine: fx.engine, webUiDir: later }));
      await app.get("/ui/").expect(404);
      writeFileSync(join(later, "index.html"), "<!doctype html><title>later</title>");
      expect((await app.get("/ui/").expect(200)).text).toContain("later");
    } finally {
      rmSync(later, { recursive: true, force: true });
    }
  });
});
