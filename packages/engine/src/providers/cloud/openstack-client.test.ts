import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startCountingListener, type CountingListener } from "@benchwright/testing";
import { guardedFetch, type GuardedFetch } from "../../net/guarded-fetch.js";
import { PUBLIC_ONLY } from "../../net/outbound-guard.js";
import { OpenStackClient, OpenStackError } from "./openstack-client.js";

// Keystone stands at https://keystone.example (a name on the Internet, as far as the guard
// knows): the test's fetch answers for it, or hands its calls to a server on loopback through
// a guard that allows that one hop. Every other call goes through the guard as production runs
// it (private endpoints not allowed). `internal`, on loopback, stands for a service inside the
// server's network: it must get no connection.

const KEYSTONE = "https://keystone.example/v3";
const SECRET = "INTERNAL-SECRET-7f3a";

let internal: CountingListener;
let internalPort: number;

beforeAll(async () => {
  internal = await startCountingListener({ answer: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}" });
  internalPort = internal.port;
});
afterAll(() => internal.stop());
beforeEach(() => internal.reset());

/** A fetch where Keystone's calls get `keystone`'s answer and every other call goes through the guard, refusing private addresses. */
function withKeystone(keystone: GuardedFetch): GuardedFetch {
  const guarded = guardedFetch(PUBLIC_ONLY);
  return (url, init) => (String(url).startsWith(KEYSTONE) ? keystone(url, init) : guarded(url, init));
}

function catalogNaming(base: string): Response {
  const endpoint = (type: string) => ({ type, endpoints: [{ interface: "public", url: `${base}/${type}` }] });
  return Response.json(
    { token: { catalog: [endpoint("compute"), endpoint("network"), endpoint("image")] } },
    { status: 201, headers: { "X-Subject-Token": "tok" } },
  );
}

function client(fetch: GuardedFetch, allowPrivate = false): OpenStackClient {
  return new OpenStackClient(
    { authUrl: KEYSTONE, username: "u", password: "the-password", project: "p", domain: "Default" },
    { fetch, outbound: { allowPrivate } },
  );
}

async function failure(call: Promise<unknown>): Promise<OpenStackError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OpenStackError);
  return error as OpenStackError;
}

describe("OpenStackClient and the addresses it calls", () => {
  it("refuses a service catalog naming a loopback endpoint, without connecting, naming the endpoint", async () => {
    const error = await failure(client(withKeystone(async () => catalogNaming(`http://127.0.0.1:${internalPort}`))).findFlavor("m1.small"));
    expect(error.message).toMatch(/^listing flavors: the compute endpoint of Keystone's catalog refused: 127\.0\.0\.1 is a loopback address/);
    expect(internal.connections).toBe(0);
  });

  it("follows no redirect from Keystone: the password is not sent on, and the redirect fails", async () => {
    const redirector: HttpServer = createHttpServer((_req, res) => {
      res.writeHead(307, { Location: `http://127.0.0.1:${internalPort}/steal` }).end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, "127.0.0.1", resolve));
    const port = (redirector.address() as AddressInfo).port;
    // The one hop to Keystone is let through; where it points next is not.
    const hop = guardedFetch({ allowPrivate: true });
    try {
      const error = await failure(client(withKeystone((url, init) => hop(String(url).replace(KEYSTONE, `http://127.0.0.1:${port}/v3`), init))).authenticate());
      expect(error.message).toBe("authenticating: auth_url answered HTTP 307, a redirect, which is not followed");
      expect(internal.connections).toBe(0);
    } finally {
      redirector.closeAllConnections();
      await new Promise<void>((resolve) => redirector.close(() => resolve()));
    }
  });

  it("does not quote an answer that is not JSON", async () => {
    const passwd = "root:x:0:0:root:/root:/bin/bash\n";
    const error = await failure(client(withKeystone(async () => new Response(passwd, { status: 201, headers: { "X-Subject-Token": "tok" } }))).authenticate());
    expect(error.message).toBe("authenticating: auth_url answered something that is not JSON");
  });

  it("keeps the service's message out of a failure, unless private endpoints are allowed (the operator's own cloud)", async () => {
    const answer = async () => Response.json({ error: { message: SECRET, code: 401 } }, { status: 401, statusText: SECRET });
    const refused = await failure(client(withKeystone(answer)).authenticate());
    expect(refused.message).toBe("authenticating: HTTP 401 from auth_url");
    const allowed = await failure(client(withKeystone(answer), true).authenticate());
    expect(allowed.message).toBe(`authenticating: HTTP 401 ${SECRET}`);
  });
});
