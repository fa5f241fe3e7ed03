import { describe, expect, it } from "vitest";
import { OutboundRefused } from "../net/outbound-guard.js";
import { describeFailure } from "./webhook-deliverer.js";

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
