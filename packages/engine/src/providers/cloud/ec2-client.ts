import { EC2Client } from "@aws-sdk/client-ec2";
import { BenchwrightError } from "../../errors.js";
import { guardedAgents, isOutboundRefused, PUBLIC_ONLY, type OutboundPolicy } from "../../net/outbound-guard.js";
import type { CloudSettings } from "./cloud-settings.js";

/** What an AWS error code looks like: kept (the driver acts on some), where a message is not. */
const AWS_CODE = /^[A-Za-z][A-Za-z0-9.]{0,63}$/;

/**
 * The error an EC2 call failed with, as the driver may pass it on: a refused connection says
 * which setting named the address; an answer from the endpoint keeps its status and error
 * code but not its message, unless the operator allows private endpoints (then the endpoints
 * are theirs), so that whoever wrote the configuration cannot read what any server answers.
 */
export function ec2Failure(error: unknown, settings: Pick<CloudSettings<"ec2">, "endpoint" | "region">, outbound: OutboundPolicy): unknown {
  const where = settings.endpoint ? "endpoint" : `the endpoint of region ${settings.region}`;
  if (isOutboundRefused(error)) {
    const refused = error instanceof Error && isOutboundRefused(error.cause) ? error.cause : error;
    return new BenchwrightError("provider_failed", `ec2: ${where} refused: ${(refused as Error).message}`);
  }
  if (outbound.allowPrivate || !error || typeof error !== "object") return error;
  const e = error as { name?: unknown; $metadata?: { httpStatusCode?: number }; $response?: unknown };
  const status = e.$metadata?.httpStatusCode;
  // A network failure has neither: its message is Node's, about the address the configuration named.
  if (status === undefined && !("$response" in e)) return error;
  const code = typeof e.name === "string" && AWS_CODE.test(e.name) && e.name !== "Error" ? e.name : undefined;
  const redirect = status !== undefined && status >= 300 && status < 400 ? ", a redirect, which is not followed" : "";
  const out = new Error(`HTTP ${status ?? "answer that could not be read"} from ${where}${redirect}`);
  if (code) out.name = code;
  return out;
}

/** An EC2 client whose connections go through the outbound guard and whose failures pass through ec2Failure. */
export function createEc2Client(settings: CloudSettings<"ec2">, outbound: OutboundPolicy = PUBLIC_ONLY): EC2Client {
  const agents = guardedAgents(outbound);
  const client = new EC2Client({
    region: settings.region,
    endpoint: settings.endpoint,
    credentials: { accessKeyId: settings.accessId, secretAccessKey: settings.secretKey },
    // The SDK's handler makes plain node:http requests over these agents, and follows no redirect.
    requestHandler: { httpAgent: agents.http, httpsAgent: agents.https },
  });
  client.middlewareStack.add(
    (next) => async (args) => {
      try {
        return await next(args);
      } catch (error) {
        throw ec2Failure(error, settings, outbound);
      }
    },
    { step: "initialize", name: "benchwrightEc2Failure" },
  );
  return client;
}
