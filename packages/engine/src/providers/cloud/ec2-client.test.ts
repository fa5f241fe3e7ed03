import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { DescribeKeyPairsCommand } from "@aws-sdk/client-ec2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCountingListener, type CountingListener } from "@benchwright/testing";
import { BenchwrightError } from "../../errors.js";
import { OutboundRefused, PUBLIC_ONLY } from "../../net/outbound-guard.js";
import { createEc2Client, ec2Failure } from "./ec2-client.js";

const SECRET = "INTERNAL-SECRET-7f3a";
const WHERE = { endpoint: "https://ec2.example", region: "eu-west-1" };
const ALLOWED = { allowPrivate: true };

/** As the SDK throws a service's error: its code as the name, its message, the status in $metadata. */
function serviceError(name: string, status: number): Error {
  return Object.assign(new Error(SECRET), { name, $metadata: { httpStatusCode: status } });
}

describe("ec2Failure", () => {
  it("keeps an answer's status and error code, not its message", () => {
    const out = ec2Failure(serviceError("InvalidKeyPair.Duplicate", 400), WHERE, PUBLIC_ONLY) as Error;
    expect(out.name).toBe("InvalidKeyPair.Duplicate");
    expect(out.message).toBe("HTTP 400 from endpoint");
  });

  it("drops a code that is not one: free text could carry what the remote read", () => {
    const out = ec2Failure(serviceError(`${SECRET} root:x:0:0`, 401), { region: "eu-west-1" }, PUBLIC_ONLY) as Error;
    expect(out.name).toBe("Error");
    expect(out.message).toBe("HTTP 401 from the endpoint of region eu-west-1");
  });

  it("says a redirect is not followed", () => {
    expect((ec2Failure(serviceError("Unknown", 307), WHERE, PUBLIC_ONLY) as Error).message).toBe("HTTP 307 from endpoint, a redirect, which is not followed");
  });

  it("takes an answer that could not be read as the remote's too", () => {
    const unread = Object.assign(new Error(`Deserialization error: ${SECRET}`), { $response: {} });
    expect((ec2Failure(unread, WHERE, PUBLIC_ONLY) as Error).message).toBe("HTTP answer that could not be read from endpoint");
  });

  it("passes a network failure and, with private endpoints allowed, any failure as it is", () => {
    const network = Object.assign(new Error("connect ECONNREFUSED 203.0.113.7:443"), { code: "ECONNREFUSED", $metadata: { attempts: 3 } });
    expect(ec2Failure(network, WHERE, PUBLIC_ONLY)).toBe(network);
    const answer = serviceError("InstanceLimitExceeded", 400);
    expect(ec2Failure(answer, WHERE, ALLOWED)).toBe(answer);
  });

  it("turns a refused connection into provider_failed naming the setting", () => {
    const out = ec2Failure(new OutboundRefused("127.0.0.1", "127.0.0.1", "loopback"), WHERE, PUBLIC_ONLY);
    expect(out).toBeInstanceOf(BenchwrightError);
    expect((out as BenchwrightError).code).toBe("provider_failed");
    expect((out as BenchwrightError).detail).toMatch(/^ec2: endpoint refused: 127\.0\.0\.1 is a loopback address/);
  });
});

describe("createEc2Client", () => {
  let internal: CountingListener;

  beforeAll(async () => {
    internal = await startCountingListener();
  });
  afterAll(() => internal.stop());

  it("follows no redirect: the SDK's request is not sent on to the Location", async () => {
    const redirector = createHttpServer((_req, res) => {
      res.writeHead(307, { Location: `http://127.0.0.1:${internal.port}/` }).end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, "127.0.0.1", resolve));
    try {
      const endpoint = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
      const client = createEc2Client({ region: "eu-west-1", endpoint, accessId: "AKIAEXAMPLE", secretKey: "secret" } as never, ALLOWED);
      await expect(client.send(new DescribeKeyPairsCommand({}))).rejects.toThrow();
      expect(internal.connections).toBe(0);
    } finally {
      redirector.closeAllConnections();
      await new Promise<void>((resolve) => redirector.close(() => resolve()));
    }
  });
});
