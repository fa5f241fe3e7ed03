import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeWithEvents } from "../events/store-with-events.js";
import { OutboundRefused } from "../net/outbound-guard.js";
import { SecretBox } from "../secrets/secret-box.js";
import type { Db } from "../store/db.js";
import { migrate } from "../store/migrations.js";
import { openDb } from "../store/open-db.js";
import type { Store } from "../store/store.js";
import { describeFailure, WebhookDeliverer } from "./webhook-deliverer.js";
import { testPgliteImage } from "@benchwright/testing/pglite-image";

// What a delivery records of an attempt that got no answer: never the address a name resolved to.
describe("describeFailure", () => {
  it("says a refusal by the outbound guard with the host given and the webhooks' setting", () => {
    expect(describeFailure(new OutboundRefused("hooks.internal", "10.0.0.7", "private"), 10_000)).toBe(
      "refused: hooks.internal resolves to a private address, which webhooks do not call unless BENCHWRIGHT_ALLOW_PRIVATE_WEBHOOKS=true",
    );
    const wrapped = Object.assign(new Error("fetch failed"), { cause: new OutboundRefused("127.0.0.1", "127.0.0.1", "loopback") });
    expect(describeFailure(wrapped, 10_000)).toBe(
      "refused: 127.0.0.1 is a loopback address, which webhooks do not call unless BENCHWRIGHT_ALLOW_PRIVATE_WEBHOOKS=true",
    );
  });

  it("says a timeout in seconds", () => {
    expect(describeFailure(new DOMException("The operation was aborted due to timeout", "TimeoutError"), 10_000)).toBe("no answer within 10 s");
  });

  it("says network errors by their code, without the addresses in their messages", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 10.1.2.3:443"), { code: "ECONNREFUSED" });
    expect(describeFailure(refused, 10_000)).toBe("connection refused");
    const odd = Object.assign(new Error("connect EWHATEVER 10.1.2.3:443"), { code: "EWHATEVER" });
    expect(describeFailure(odd, 10_000)).toBe("network error EWHATEVER");
    expect(describeFailure(new Error("something 10.1.2.3"), 10_000)).toBe("the request failed");
    expect(describeFailure(Object.assign(new Error("certificate has expired"), { code: "CERT_HAS_EXPIRED" }), 10_000)).toBe(
      "CERT_HAS_EXPIRED: certificate has expired",
    );
  });
});

describe("the webhook deliverer", () => {
  let db: Db;
  let store: Store;
  let receiver: Server;
  let url: string;
  const received: string[] = [];
  beforeAll(async () => {
    db = await openDb({ pgliteDir: "memory://", pgliteImage: testPgliteImage() });
    await migrate(db);
    store = storeWithEvents(db);
    receiver = createServer((req, res) => {
      received.push(String(req.headers["benchwright-delivery"]));
      req.resume();
      req.on("end", () => res.writeHead(204).end());
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  }, 60_000);
  afterAll(async () => {
    await new Promise((r) => receiver.close(r));
    await db.close();
  });

  async function webhookSealedBy(box: SecretBox): Promise<string> {
    const id = randomUUID();
    await store.webhooks.insert({ id, url, secret_sealed: box.seal("whsec_x"), events: ["regression"], plan_id: null, format: "json", created: new Date() });
    return id;
  }

  it("fails a delivery at once when its secret was sealed with another key, sending nothing", async () => {
    const id = await webhookSealedBy(new SecretBox(randomBytes(32)));
    const deliverer = new WebhookDeliverer({ store, secrets: new SecretBox(randomBytes(32)), allowPrivate: true, pollMs: 20 });
    deliverer.start();
    try {
      await store.webhooks.enqueue("regression", `change:${randomUUID()}`, null, {});
      for (let i = 0; i < 200 && (await store.webhooks.deliveries(id, undefined, undefined))[0]?.state === "pending"; i++)
        await new Promise((r) => setTimeout(r, 20));
      const [delivery] = await store.webhooks.deliveries(id, undefined, undefined);
      expect(delivery).toMatchObject({
        state: "failed",
        attempts: 1,
        last_status: null,
        last_error: expect.stringMatching(/sealed with another BENCHWRIGHT_SECRET_KEY/),
      });
      expect(received).not.toContain(delivery!.id);
    } finally {
      await deliverer.stop();
      await store.webhooks.delete(id);
    }
  });

  it("sends nothing once stopped; a deliverer still running sends it, once", async () => {
    const box = new SecretBox(randomBytes(32));
    const id = await webhookSealedBy(box);
    const deliverer = new WebhookDeliverer({ store, secrets: box, allowPrivate: true, pollMs: 20 });
    deliverer.start();
    await deliverer.stop();
    await store.webhooks.enqueue("regression", `change:${randomUUID()}`, null, {});
    await new Promise((r) => setTimeout(r, 200));
    const [delivery] = await store.webhooks.deliveries(id, undefined, undefined);
    expect(delivery).toMatchObject({ state: "pending", attempts: 0 });
    // Another deliverer (a server still running) sends it.
    const other = new WebhookDeliverer({ store, secrets: box, allowPrivate: true, pollMs: 20 });
    other.start();
    try {
      for (let i = 0; i < 200 && !received.includes(delivery!.id); i++) await new Promise((r) => setTimeout(r, 20));
      expect(received.filter((d) => d === delivery!.id)).toHaveLength(1);
    } finally {
      await other.stop();
    }
  });
});
