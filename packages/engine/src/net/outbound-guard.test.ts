import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startCountingListener, type CountingListener } from "@benchwright/testing";
import { guardedFetch } from "./guarded-fetch.js";
import { guardedAgents, guardedLookup, OutboundRefused, PUBLIC_ONLY } from "./outbound-guard.js";

// A listener on loopback (v4 and v6) that answers any request with 200 "hello" and counts the connections it got.
let listener: CountingListener;
let port: number;

beforeAll(async () => {
  listener = await startCountingListener({ host: "::", answer: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello" });
  port = listener.port;
});
afterAll(() => listener.stop());
beforeEach(() => listener.reset());

function get(url: string, agent: http.Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .once("error", reject);
  });
}

describe("guardedAgents", () => {
  it.each(["127.0.0.1", "127.0.0.2", "localhost", "[::1]", "[::ffff:127.0.0.1]", "0.0.0.0"])(
    "refuses %s before connecting, without the setting",
    async (host) => {
      const agents = guardedAgents(PUBLIC_ONLY);
      await expect(get(`http://${host}:${port}/`, agents.http)).rejects.toBeInstanceOf(OutboundRefused);
      expect(listener.connections).toBe(0);
    },
  );

  it("refuses a name by the addresses it resolves to, without telling them", async () => {
    const error = await get(`http://localhost:${port}/`, guardedAgents(PUBLIC_ONLY).http).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundRefused);
    expect((error as OutboundRefused).message).toBe(
      "localhost resolves to a loopback address, which the server does not call unless BENCHWRIGHT_ALLOW_PRIVATE_ENDPOINTS is set",
    );
    expect((error as OutboundRefused).address).toMatch(/^(127\.0\.0\.1|::1)$/);
    expect(listener.connections).toBe(0);
  });

  it("connects there with the setting", async () => {
    const agents = guardedAgents({ allowPrivate: true });
    expect(await get(`http://127.0.0.1:${port}/`, agents.http)).toBe(200);
    expect(await get(`http://localhost:${port}/`, agents.http)).toBe(200);
    expect(listener.connections).toBe(2);
  });
});

describe("guardedLookup", () => {
  it("answers both forms of lookup for an allowed name", async () => {
    const lookup = guardedLookup({ allowPrivate: true });
    const one = await new Promise<unknown>((resolve, reject) => lookup("localhost", { family: 4 }, (e, address) => (e ? reject(e) : resolve(address))));
    expect(one).toBe("127.0.0.1");
    const all = await new Promise<unknown>((resolve, reject) =>
      lookup("localhost", { all: true, family: 4 }, (e, addresses) => (e ? reject(e) : resolve(addresses))),
    );
    expect(all).toEqual([{ address: "127.0.0.1", family: 4 }]);
  });
});

describe("guardedFetch", () => {
  it("refuses loopback without the setting, before connecting", async () => {
    await expect(guardedFetch(PUBLIC_ONLY)(`http://127.0.0.1:${port}/`)).rejects.toBeInstanceOf(OutboundRefused);
    expect(listener.connections).toBe(0);
  });

  it("sends the request and hands back the answer", async () => {
    const res = await guardedFetch({ allowPrivate: true })(`http://127.0.0.1:${port}/`, { method: "POST", body: "{}" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("hello");
  });

  it("follows no redirect: the 3xx comes back and its Location gets no connection", async () => {
    const redirecting = http.createServer((_req, res) => {
      res.writeHead(307, { Location: `http://127.0.0.1:${port}/elsewhere` }).end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, "127.0.0.1", resolve));
    try {
      const res = await guardedFetch({ allowPrivate: true })(`http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/`, {
        method: "POST",
        body: "secret",
      });
      expect(res.status).toBe(307);
      expect(listener.connections).toBe(0);
    } finally {
      redirecting.closeAllConnections();
      await new Promise<void>((resolve) => redirecting.close(() => resolve()));
    }
  });
});
