import { ComputeManagementClient } from "@azure/arm-compute";
import { NetworkManagementClient } from "@azure/arm-network";
import { ClientSecretCredential } from "@azure/identity";
import { BenchwrightError } from "../../errors.js";
import { guardedAgents, guardedLookup, isOutboundRefused, PUBLIC_ONLY, type OutboundPolicy } from "../../net/outbound-guard.js";
import type { CloudProviderOptions, CloudSettings } from "./cloud-settings.js";

/** Azure's public cloud, where the configuration names no other. */
const ARM_ENDPOINT = "https://management.azure.com";

/** What an Azure error code looks like (`QuotaExceeded`, `InUseNetworkSecurityGroupCannotBeDeleted`). */
const AZURE_CODE = /^[A-Za-z][A-Za-z0-9._]{0,79}$/;

export interface AzureClients {
  compute: ComputeManagementClient;
  network: NetworkManagementClient;
  /** Turns what a call failed with into what the driver may pass on (see azureFailure). */
  failure(error: unknown): Promise<unknown>;
}

/** The status and Azure error code of a failed call, whichever SDK (Resource Manager's or Entra's) threw it. */
export function statusOf(error: unknown): { status?: number; code?: string } {
  const e = error as { statusCode?: unknown; code?: unknown; errorResponse?: { error?: unknown } } | undefined;
  const status = typeof e?.statusCode === "number" ? e.statusCode : undefined;
  const raw = typeof e?.code === "string" ? e.code : typeof e?.errorResponse?.error === "string" ? e.errorResponse.error : undefined;
  return { status, code: raw && AZURE_CODE.test(raw) ? raw : undefined };
}

/**
 * The error an Azure call failed with, as the driver may pass it on: a refused connection says
 * which setting named the address; an answer from an endpoint or authority the configuration
 * chose keeps its status and error code but not its message (whoever wrote the configuration
 * must not read what any server answers), unless the operator allows private endpoints.
 * Microsoft's own endpoints' messages are kept: they say why (a quota, an image not found).
 */
export async function azureFailure(error: unknown, chosen: boolean, outbound: OutboundPolicy, hosts: string[]): Promise<unknown> {
  const { status, code } = statusOf(error);
  // MSAL reports a token request that got no connection as endpoints_resolution_error, without its
  // cause: whether the guard refused a host is asked again here, to say so.
  const refused = isOutboundRefused(error) ? refusedOf(error) : status === undefined ? await firstRefused(outbound, hosts) : undefined;
  if (refused) return new BenchwrightError("provider_failed", `azure: endpoint refused: ${refused.message}`);
  if (!chosen || outbound.allowPrivate || status === undefined) return error;
  const out = new Error(`HTTP ${status} from the configured endpoint`);
  if (code) out.name = code;
  return out;
}

function refusedOf(error: unknown): Error {
  return (error instanceof Error && isOutboundRefused(error.cause) ? error.cause : error) as Error;
}

/** The guard's refusal of the first of these hosts it refuses, if any. */
async function firstRefused(policy: OutboundPolicy, hosts: string[]): Promise<Error | undefined> {
  const lookup = guardedLookup(policy);
  for (const host of hosts) {
    const refused = await new Promise<Error | undefined>((resolve) => lookup(host, {}, (e) => resolve(e && isOutboundRefused(e) ? e : undefined)));
    if (refused) return refused;
  }
  return undefined;
}

/**
 * Resource Manager's compute and network clients, authenticated as the service principal,
 * every request (the token's too) made over the outbound guard's agent.
 */
export function createAzureClients(settings: CloudSettings<"azure">, options: CloudProviderOptions): AzureClients {
  const outbound = options.outbound ?? PUBLIC_ONLY;
  const agent = guardedAgents(outbound, { ca: options.azureCa }).https;
  const credential = new ClientSecretCredential(settings.tenant, settings.accessId, settings.secretKey, {
    agent,
    authorityHost: settings.authorityHost,
    // Instance discovery asks login.microsoftonline.com whatever the authority: the configured one is taken as it is.
    disableInstanceDiscovery: true,
  });
  const endpoint = (settings.endpoint ?? ARM_ENDPOINT).replace(/\/+$/, "");
  const scopes = [`${endpoint}/.default`];
  const chosen = settings.endpoint !== undefined || settings.authorityHost !== undefined;
  const hosts = [settings.authorityHost, endpoint].flatMap((url) => (url ? [new URL(url).hostname.replace(/^\[(.*)\]$/, "$1")] : []));
  return {
    compute: new ComputeManagementClient(credential, settings.subscriptionId, { agent, endpoint, credentials: { scopes } }),
    network: new NetworkManagementClient(credential, settings.subscriptionId, { agent, endpoint, credentialScopes: scopes }),
    failure: (error) => azureFailure(error, chosen, outbound, hosts),
  };
}
