import { startPrism, type RunningPrism } from "@benchwright/contract/prism";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "../process/config.js";
import { parseCorsOrigins } from "./cors.js";
import { openFixture, type Fixture } from "../test-support/fixture.js";

const PAGE = "http://page.example:8080";
const TOKEN = "s3cret-token-for-cors";

/** The CORS headers of an answer, by lower-case name. */
function corsHeaders(headers: Record<string, string> | Headers): Record<string, string> {
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  return Object.fromEntries(entries.filter(([k]) => k.toLowerCase().startsWith("access-control-")).map(([k, v]) => [k.toLowerCase(), String(v)]));
}

describe("CORS for the origins in BENCHWRIGHT_CORS_ORIGINS", () => {
  let fx: Fixture;
  let api: ReturnType<typeof request>;
  let mock: RunningPrism;

  beforeAll(async () => {
    fx = await openFixture({ token: TOKEN, corsOrigins: [PAGE, "https://other.example"] });
    api = request(fx.app);
    mock = await startPrism({ mode: "mock" });
  }, 60_000);
  afterAll(async () => {
    await mock?.stop();
    await fx?.close();
  });

  const preflight = {
    Origin: PAGE,
    "Access-Control-Request-Method": "POST",
    "Access-Control-Request-Headers": "authorization,content-type,x-fields",
  };

  it("answers a preflight from a listed origin at once, with the mock's headers, before the token and the validator", async () => {
    // No token, and OPTIONS is no operation of the contract: neither may refuse a preflight.
    const ours = await api.options("/api/v1/sessions/").set(preflight).expect(204);
    const theirs = await fetch(`${mock.url}/api/v1/sessions/`, { method: "OPTIONS", headers: preflight });
    expect(theirs.status).toBe(204);
    const [o, t] = [corsHeaders(ours.headers), corsHeaders(theirs.headers)];
    expect(Object.keys(o).sort()).toEqual(Object.keys(t).sort());
    for (const name of ["access-control-allow-origin", "access-control-allow-headers", "access-control-allow-credentials", "access-control-allow-methods"]) {
      expect([name, o[name]]).toEqual([name, t[name]]);
    }
    expect(o["access-control-allow-origin"]).toBe(PAGE);
    // The mock exposes `*`; so do we, and name the contract's headers for credentialed requests.
    expect(t["access-control-expose-headers"]).toBe("*");
    expect(o["access-control-expose-headers"].split(/,\s*/)).toEqual(expect.arrayContaining(["*", "Location", "Content-Range", "Preference-Applied"]));
    expect(ours.headers.vary).toMatch(/Origin/);
  });

  it("answers a listed origin's requests with the mock's headers, a refusal included", async () => {
    const ours = await api
      .get("/api/v1/benchmarks/")
      .set({ Origin: PAGE, Authorization: `Bearer ${TOKEN}` })
      .expect(200);
    const theirs = await fetch(`${mock.url}/api/v1/benchmarks/`, { headers: { Origin: PAGE } });
    const [o, t] = [corsHeaders(ours.headers), corsHeaders(theirs.headers)];
    expect(Object.keys(o).sort()).toEqual(Object.keys(t).sort());
    expect(o["access-control-allow-origin"]).toBe(PAGE);
    expect(o["access-control-allow-credentials"]).toBe("true");
    // A page must be able to read the problem of a refused call too.
    const refused = await api.get("/api/v1/sessions/").set({ Origin: "https://other.example" }).expect(401);
    expect(corsHeaders(refused.headers)["access-control-allow-origin"]).toBe("https://other.example");
  });

  it("gives an origin not listed no CORS header, on a preflight or a request", async () => {
    const pre = await api.options("/api/v1/sessions/").set({ ...preflight, Origin: "http://evil.example" });
    expect(pre.status).not.toBe(204);
    expect(corsHeaders(pre.headers)).toEqual({});
    const get = await api
      .get("/api/v1/benchmarks/")
      .set({ Origin: "http://evil.example", Authorization: `Bearer ${TOKEN}` })
      .expect(200);
    expect(corsHeaders(get.headers)).toEqual({});
  });

  it("gives no CORS header at all by default", async () => {
    const plain = fx.appWith({});
    const pre = await request(plain).options("/api/v1/sessions/").set(preflight);
    expect(pre.status).not.toBe(204);
    expect(corsHeaders(pre.headers)).toEqual({});
    const get = await request(plain).get("/api/v1/benchmarks/").set({ Origin: PAGE }).expect(200);
    expect(corsHeaders(get.headers)).toEqual({});
  });

  it("answers `*` for any origin without credentials, and never the `null` origin unless it is listed", async () => {
    {
      const api = request(fx.appWith({ corsOrigins: ["*"] }));
      const get = await api.get("/api/v1/benchmarks/").set({ Origin: "http://anyone.example" }).expect(200);
      expect(corsHeaders(get.headers)["access-control-allow-origin"]).toBe("*");
      expect(corsHeaders(get.headers)).not.toHaveProperty("access-control-allow-credentials");
      const pre = await api
        .options("/api/v1/sessions/")
        .set({ ...preflight, Origin: "http://anyone.example" })
        .expect(204);
      expect(corsHeaders(pre.headers)["access-control-allow-origin"]).toBe("*");
      expect(corsHeaders(pre.headers)).not.toHaveProperty("access-control-allow-credentials");
      // A sandboxed frame or a file:// page sends `null`: `*` does not cover it.
      const opaque = await api.get("/api/v1/benchmarks/").set({ Origin: "null" }).expect(200);
      expect(corsHeaders(opaque.headers)).toEqual({});
      const opaquePre = await api.options("/api/v1/sessions/").set({ ...preflight, Origin: "null" });
      expect(opaquePre.status).not.toBe(204);
      expect(corsHeaders(opaquePre.headers)).toEqual({});
    }
    // Listed next to `*`, an origin keeps the mock's headers (echoed, with credentials); so does `null` listed.
    {
      const api = request(fx.appWith({ corsOrigins: parseCorsOrigins(`*, ${PAGE}, null`) }));
      for (const origin of [PAGE, "null"]) {
        const get = await api.get("/api/v1/benchmarks/").set({ Origin: origin }).expect(200);
        expect(corsHeaders(get.headers)).toMatchObject({
          "access-control-allow-origin": origin,
          "access-control-allow-credentials": "true",
        });
      }
      const other = await api.get("/api/v1/benchmarks/").set({ Origin: "http://anyone.example" }).expect(200);
      expect(corsHeaders(other.headers)["access-control-allow-origin"]).toBe("*");
      expect(corsHeaders(other.headers)).not.toHaveProperty("access-control-allow-credentials");
    }
  });

  it("reads BENCHWRIGHT_CORS_ORIGINS as a comma-separated list of origins, and refuses what is not one", () => {
    expect(readConfig({}, []).corsOrigins).toEqual([]);
    expect(readConfig({ BENCHWRIGHT_CORS_ORIGINS: " http://localhost:3000, https://app.example.org/ " }, []).corsOrigins).toEqual([
      "http://localhost:3000",
      "https://app.example.org/",
    ]);
    expect(parseCorsOrigins("*")).toEqual(["*"]);
    expect(parseCorsOrigins("null")).toEqual(["null"]);
    expect(() => parseCorsOrigins("http://localhost:3000/page")).toThrow(/not an origin/);
    expect(() => parseCorsOrigins("localhost:3000")).toThrow(/not an origin/);
  });
});
