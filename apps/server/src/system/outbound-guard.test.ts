import { startCountingListener, type CountingListener } from "@benchwright/testing";
import request from "supertest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";

// A session's configuration may come inline, from whoever calls the API: its endpoints must not
// make the server call this host, its networks or a metadata service (BENCHWRIGHT_ALLOW_PRIVATE_ENDPOINTS
// unset, as in production). A listener on loopback stands for an internal service: it answers
// anything with a secret, and counts the connections it got, which must stay at none.

const SECRET = "INTERNAL-SECRET-7f3a";
const FAST = { pollIntervalMs: 5, stateTimeoutMs: 5000, sshPollIntervalMs: 20, sshTimeoutMs: 3000 };

let internal: CountingListener;
let port: number;
let fx: Fixture;
let api: ReturnType<typeof request>;

beforeAll(async () => {
  internal = await startCountingListener({
    host: "::",
    answer: `HTTP/1.1 401 ${SECRET}\r\nContent-Type: text/plain\r\nContent-Length: 16\r\nConnection: close\r\n\r\nroot:x:0:0:root:`,
  });
  port = internal.port;
  fx = await openFixture({ engine: { providers: { cloud: FAST } } });
  api = request(fx.app);
}, 30_000);

afterAll(async () => {
  await fx?.close();
  await internal?.stop();
});

beforeEach(() => internal.reset());

/** Prepares an idle step on a session of `provider`; the answer. */
async function prepare(provider: Record<string, unknown>): Promise<request.Response> {
  const config = { provider, small: { image: "debian-12", size: "m1.small", vm_user: "debian", platform: "debian_12" } };
  const session = await api.post("/api/v1/sessions/").send({ config });
  expect(session.status, session.text).toBe(200);
  const exec = await api.post(`/api/v1/sessions/${session.body.id}/executions/`).send({ tool: "idle", workload: "idle0" }).expect(200);
  const answer = await api.post(`/api/v1/executions/${exec.body.id}/prepare`);
  await api.delete(`/api/v1/sessions/${session.body.id}`);
  return answer;
}

function expectRefused(res: request.Response, setting: RegExp): void {
  expect(res.status, res.text).toBe(502);
  expect(res.body.code).toBe("provider_failed");
  expect(res.body.detail).toMatch(setting);
  expect(res.text).not.toContain(SECRET);
  expect(res.text).not.toContain("root:x");
  expect(internal.connections, "connections that reached the internal listener").toBe(0);
}

describe("an inline cloud configuration naming an internal address", () => {
  for (const host of ["127.0.0.1", "127.0.0.2", "localhost", "[::1]"]) {
    it(`refuses an OpenStack auth_url at ${host} without connecting`, async () => {
      const res = await prepare({
        class: "cloud",
        name: "openstack",
        driver: "openstack",
        auth_url: `http://${host}:${port}/any/path?q=`,
        access_id: "demo",
        secret_key: "the-password",
        tenant: "demo",
      });
      expectRefused(res, /auth_url/);
      expect(res.text).not.toContain("the-password");
    }, 30_000);
  }

  it("answers the same whether something listens on the port or not: no port scanning through auth_url", async () => {
    const closed = await startCountingListener();
    await closed.stop();
    const at = (p: number) =>
      prepare({
        class: "cloud",
        name: "openstack",
        driver: "openstack",
        auth_url: `http://127.0.0.1:${p}/v3`,
        access_id: "demo",
        secret_key: "the-password",
        tenant: "demo",
      });
    const listening = await at(port);
    const nothing = await at(closed.port);
    expect(listening.status).toBe(502);
    expect(nothing.body.detail).toBe(listening.body.detail);
    expect(internal.connections).toBe(0);
  }, 30_000);

  it("refuses an EC2 endpoint on loopback without connecting", async () => {
    const res = await prepare({
      class: "cloud",
      name: "aws",
      driver: "ec2",
      endpoint: `http://127.0.0.1:${port}`,
      access_id: "AKIAEXAMPLEACCESSID42",
      secret_key: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
      region: "eu-west-1",
    });
    expectRefused(res, /endpoint/);
  }, 30_000);
});
