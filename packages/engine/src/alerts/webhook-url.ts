import { BenchwrightError } from "../errors.js";
import { guardedLookup, isOutboundRefused, type OutboundPolicy, type OutboundRefused } from "../net/outbound-guard.js";

/** The setting that lets webhooks call loopback, private and link-local addresses. */
const ALLOW_PRIVATE_WEBHOOKS = "BENCHWRIGHT_ALLOW_PRIVATE_WEBHOOKS";

const MAX_URL_LENGTH = 2048;

/**
 * The URL a webhook may be created with, normalized; a webhook_url_refused error for one that
 * is not http(s), carries credentials (they would be stored and sent in clear), or whose host
 * is or resolves now to an address the policy refuses. A name that does not resolve is let
 * through: every delivery is checked again when it connects, which is what protects.
 */
export async function checkWebhookUrl(raw: string, policy: OutboundPolicy): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused("url is not an absolute URL");
  }
  if (raw.length > MAX_URL_LENGTH) throw refused(`url is longer than ${MAX_URL_LENGTH} characters`);
  if (url.protocol !== "http:" && url.protocol !== "https:") throw refused(`url must be http or https, not ${url.protocol.replace(/:$/, "")}`);
  if (url.username || url.password) throw refused("url must not hold credentials (user:password@): put a token in its path or query, or check the signature");
  if (!policy.allowPrivate) {
    const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
    const denial = await new Promise<OutboundRefused | undefined>((resolve) =>
      guardedLookup(policy)(host, { all: true }, (error) => resolve(isOutboundRefused(error) ? (error as OutboundRefused) : undefined)),
    );
    if (denial) throw refused(refusalText(denial));
  }
  return url.href;
}

/** What a refusal says: the host as given, never what it resolved to, and the setting that allows it. */
export function refusalText(denial: OutboundRefused): string {
  return `${denial.host} ${denial.address === denial.host ? "is" : "resolves to"} a ${denial.refused} address, which webhooks do not call unless ${ALLOW_PRIVATE_WEBHOOKS}=true`;
}

function refused(message: string): BenchwrightError {
  return new BenchwrightError("webhook_url_refused", message, { errors: [{ path: "/body/url", message }] });
}
