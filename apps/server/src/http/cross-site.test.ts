import { get } from "node:http";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverDirs } from "@benchwright/testing";
import { parseAllowedHosts, readConfig } from "../process/config.js";
import { startServer } from "../process/server.js";
import { silentLogger } from "../operations/logger.js";
import { openFixture, type Fixture } from "../test-support/fixture.js";
import { listen, type Listening, type RawResponse } from "../test-support/raw-http.js";
import { createApp } from "../app.js";
import { parseHostEntry } from "./cross-site.js";
import { storeSnapshot } from "@benchwright/engine/test-access";

const TOKEN = "s3cret-token-for-cross-site";
const PAGE = "http://page.example:8080";

function expectProblem(res: RawResponse, code: string): void {
  expect([res.status, (res.json as { code?: string } | undefined)?.code], res.text).toEqual([403, code]);
  expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
}

// One engine for the file: each server's settings are an app made over it.
let fx: Fixture;
beforeAll(async () => {
  fx = await openFixture({ engine: { work: false } });
}, 60_000);
afterAll(async () => {
  await fx?.close();
});

describe("a server without a token", () => {
  let server: Listening;
  let own: string;
  let sessionId: string;

  beforeAll(async () => {
    // Configured hosts as server.ts passes them: HOST, then BENCHWRIGHT_ALLOWED_HOSTS.
    server = await listen(
      createApp({ engine: fx.engine, validateResponses: true, corsOrigins: [PAGE], allowedHosts: ["127.0.0.1", "bench.lan", "proxy.example:8443"] }),
    );
    own = `127.0.0.1:${server.port}`;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  /** A session to delete: what a page of another origin must not be able to do. */
  async function newSession(): Promise<string> {
    const res = await server.send("POST", "/api/v1/sessions/", {
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ provider: "local", service: "default" }),
    });
    expect(res.status, res.text).toBe(200);
    return (res.json as { id: string }).id;
  }

  beforeAll(async () => {
    sessionId = await newSession();
  });

  it.each([
    ["a rebound name", "evil.example"],
    ["a rebound name with the server's port", "evil.example:PORT"],
    ["a name that ends like localhost", "localhost.evil.example"],
    ["a listed name with another port", "proxy.example:9000"],
    ["no name at all", ":80"],
  ])("refuses a foreign Host (%s) with 403 host_not_allowed, and changes nothing", async (_name, host) => {
    const before = await storeSnapshot(fx.engine);
    const headers = { Host: host.replace("PORT", String(server.port)) };
    for (const [method, path] of [
      ["GET", "/api/v1/sessions/"],
      ["DELETE", `/api/v1/sessions/${sessionId}`],
      ["POST", "/api/v1/admin/sweep"],
      ["GET", "/ui/"],
    ]) {
      const res = await server.send(method, path, { headers });
      expectProblem(res, "host_not_allowed");
      expect((res.json as { detail: string }).detail).toMatch(/BENCHWRIGHT_ALLOWED_HOSTS/);
    }
    expect(await storeSnapshot(fx.engine)).toBe(before);
  });

  it.each([
    ["its address and port", "127.0.0.1:PORT"],
    ["localhost", "localhost:PORT"],
    ["localhost through a tunnel's port", "localhost:8080"],
    ["IPv6 loopback", "[::1]:PORT"],
    ["another loopback address", "127.0.0.2:PORT"],
    ["a configured host, any port", "bench.lan:5000"],
    ["a configured host in upper case, with a final dot", "BENCH.LAN.:5000"],
    ["a configured host and its port", "proxy.example:8443"],
  ])("answers a request that names %s", async (_name, host) => {
    const res = await server.send("GET", "/api/v1/sessions/", { headers: { Host: host.replace("PORT", String(server.port)) } });
    expect(res.status, res.text).toBe(200);
  });

  const changes: Array<[string, string, () => string, { body?: string; headers?: Record<string, string> }]> = [
    ["DELETE without a body", "DELETE", () => `/api/v1/sessions/${sessionId}`, {}],
    ["POST without a body", "POST", () => "/api/v1/admin/sweep", {}],
    [
      "POST with a text/plain body",
      "POST",
      () => "/api/v1/sessions/",
      { headers: { "Content-Type": "text/plain" }, body: '{"provider":"local","service":"default"}' },
    ],
  ];
  it.each(changes)("refuses a %s from a page of another origin with 403 cross_site_request, and changes nothing", async (_name, method, path, extra) => {
    const before = await storeSnapshot(fx.engine);
    const { body, headers: contentType = {} } = extra;
    for (const headers of [
      { Origin: "http://evil.example" },
      { Origin: "null" },
      // The same host on another port is another origin (another server on this machine).
      { Origin: "http://127.0.0.1:1" },
      // A browser that sent no Origin still says where the request came from.
      { "Sec-Fetch-Site": "cross-site" },
    ]) {
      const withPort = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace("PORT", String(server.port))]));
      const res = await server.send(method, path(), { headers: { ...withPort, ...contentType }, body });
      expectProblem(res, "cross_site_request");
    }
    expect(await storeSnapshot(fx.engine)).toBe(before);
    expect((await server.send("GET", `/api/v1/sessions/${sessionId}`)).status).toBe(200);
  });

  it("lets the server's own pages, a listed origin and clients without Origin (the SDK, curl) change things", async () => {
    const ownPage = { Origin: `http://${own}`, "Sec-Fetch-Site": "same-origin" };
    expect((await server.send("DELETE", `/api/v1/sessions/${await newSession()}`, { headers: ownPage })).status).toBe(204);
    // A page on localhost calling 127.0.0.1 is same-site but another origin: only a listed one may.
    expect((await server.send("DELETE", `/api/v1/sessions/${await newSession()}`, { headers: { Origin: PAGE, "Sec-Fetch-Site": "cross-site" } })).status).toBe(
      204,
    );
    expect((await server.send("DELETE", `/api/v1/sessions/${await newSession()}`)).status).toBe(204);
    expect((await server.send("DELETE", `/api/v1/sessions/${await newSession()}`, { headers: { "Sec-Fetch-Site": "same-origin" } })).status).toBe(204);
  });

  it("lets any origin read: CORS, not this check, decides what its page may see", async () => {
    const res = await server.send("GET", "/api/v1/sessions/", { headers: { Origin: "http://evil.example", "Sec-Fetch-Site": "cross-site" } });
    expect(res.status).toBe(200);
    expect(res.headers["access-control-allow-origin"]).toBeUndefined();
  });
});

describe("a server with a token", () => {
  let api: ReturnType<typeof request>;

  beforeAll(() => {
    api = request(fx.appWith({ token: TOKEN }));
  });

  it("answers any Host: a rebound page has no token to send", async () => {
    await api
      .get("/api/v1/sessions/")
      .set({ Host: "bench.example.org", Authorization: `Bearer ${TOKEN}` })
      .expect(200);
    const res = await api.get("/api/v1/sessions/").set({ Host: "bench.example.org" });
    expect([res.status, res.body.code]).toEqual([401, "unauthorized"]);
  });

  it("refuses a change from another origin alike, token or not", async () => {
    const before = await storeSnapshot(fx.engine);
    const res = await api.post("/api/v1/admin/sweep").set({ Origin: "http://evil.example", Authorization: `Bearer ${TOKEN}` });
    expect([res.status, res.body.code]).toEqual([403, "cross_site_request"]);
    expect(await storeSnapshot(fx.engine)).toBe(before);
  });

  it("never reads the token from a cookie", async () => {
    for (const cookie of [
      `token=${TOKEN}`,
      `authorization=Bearer ${TOKEN}`,
      `Authorization=Bearer%20${TOKEN}`,
      `benchwright_token=${TOKEN}`,
      `access_token=${TOKEN}`,
    ]) {
      const res = await api.get("/api/v1/sessions/").set("Cookie", cookie);
      expect([cookie, res.status, res.body.code]).toEqual([cookie, 401, "unauthorized"]);
    }
  });
});

describe("BENCHWRIGHT_ALLOWED_HOSTS", () => {
  it("reads names, names with ports, bracketed IPv6 and *", () => {
    expect(readConfig({ BENCHWRIGHT_ALLOWED_HOSTS: " bench.lan, proxy.example:8443 ,[::1]:5000,*" }, []).allowedHosts).toEqual([
      "bench.lan",
      "proxy.example:8443",
      "[::1]:5000",
      "*",
    ]);
    expect(readConfig({}, []).allowedHosts).toEqual([]);
  });

  it.each(["http://bench.lan", "bench.lan/ui", "bench lan", "[bench]:80", "bench.lan:port"])("keeps the process from starting on %s", (value) => {
    expect(() => parseAllowedHosts(value)).toThrow(/BENCHWRIGHT_ALLOWED_HOSTS/);
  });

  it("parses Host headers as browsers send them", () => {
    expect(parseHostEntry("LocalHost:5000")).toEqual({ name: "localhost", port: "5000" });
    expect(parseHostEntry("[::1]:5000")).toEqual({ name: "::1", port: "5000" });
    expect(parseHostEntry("::1")).toEqual({ name: "::1" });
    expect(parseHostEntry("bench.lan.")).toEqual({ name: "bench.lan" });
  });

  it("`*` answers any host", async () => {
    const app = createApp({ engine: fx.engine, allowedHosts: ["*"] });
    await request(app).get("/api/v1/sessions/").set("Host", "anything.example").expect(200);
  });
});

describe("the server started from its settings", () => {
  it("answers HOST and BENCHWRIGHT_ALLOWED_HOSTS beside its own names, and refuses other hosts", async () => {
    const { dataDir, configDir, remove } = serverDirs("cross-site");
    const config = readConfig(
      { HOST: "127.0.0.1", PORT: "0", BENCHWRIGHT_DATA_DIR: dataDir, BENCHWRIGHT_CONFIG_DIR: configDir, BENCHWRIGHT_ALLOWED_HOSTS: "bench.lan" },
      [],
    );
    const running = await startServer(config, silentLogger);
    try {
      // fetch names the URL's host whatever the headers say: node:http sends Host as given.
      const status = (host: string) =>
        new Promise<number>((resolve, reject) => {
          get(`${running.url}/api/v1/sessions/`, { headers: { Host: host } }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          }).on("error", reject);
        });
      expect(await status("bench.lan:5000")).toBe(200);
      expect(await status("localhost")).toBe(200);
      expect(await status("evil.example")).toBe(403);
    } finally {
      await running.close();
      remove();
    }
  }, 60_000);
});
