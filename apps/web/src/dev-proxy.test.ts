// `npx vite` serves the page on its own origin: the API's calls must reach a server, not the
// dev server's index.html (which the SDK then failed to read as JSON: "Unexpected token '<'").
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createServer, type ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const WEB_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");

describe("the dev server (npx vite)", () => {
  let api: Server;
  let vite: ViteDevServer;
  let seen: string[];
  const previous = process.env.BENCHWRIGHT_URL;

  beforeAll(async () => {
    seen = [];
    api = createHttpServer((req, res) => {
      seen.push(`${req.method} ${req.url}${req.headers.origin ? ` from ${req.headers.origin}` : ""}`);
      res.writeHead(200, { "Content-Type": "application/json" }).end("[]");
    });
    await new Promise<void>((r) => api.listen(0, "127.0.0.1", r));
    process.env.BENCHWRIGHT_URL = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    vite = await createServer({
      root: WEB_DIR,
      configFile: resolve(WEB_DIR, "vite.config.ts"),
      logLevel: "silent",
      server: { port: 0, host: "127.0.0.1" },
    });
    await vite.listen();
  });
  afterAll(async () => {
    if (previous === undefined) delete process.env.BENCHWRIGHT_URL;
    else process.env.BENCHWRIGHT_URL = previous;
    await vite?.close();
    await new Promise((r) => api?.close(r));
  });

  it("passes /api to the server at BENCHWRIGHT_URL, path and query as they are", async () => {
    const base = vite.resolvedUrls!.local[0]!.replace(/\/$/, "");
    const answer = await fetch(`${base}/api/v1/sessions/?state=active`);
    expect(answer.headers.get("content-type")).toContain("application/json");
    expect(await answer.json()).toEqual([]);
    expect(seen).toEqual(["GET /api/v1/sessions/?state=active"]);
  });

  it("names the server's origin for the page's own changes, and passes any other page's origin on", async () => {
    const base = vite.resolvedUrls!.local[0]!.replace(/\/$/, "");
    seen = [];
    await fetch(`${base}/api/v1/admin/sweep`, { method: "POST", headers: { Origin: base } });
    await fetch(`${base}/api/v1/admin/sweep`, { method: "POST", headers: { Origin: "http://evil.example" } });
    expect(seen).toEqual([`POST /api/v1/admin/sweep from ${process.env.BENCHWRIGHT_URL}`, "POST /api/v1/admin/sweep from http://evil.example"]);
  });
});
