// What the cloud provider adds at run time to a parsed CloudConfig (config/parse-cloud-config.ts
// reads the user's sections): the code's own knobs and timings, and how it names and tags what it makes.
import type { EC2Client } from "@aws-sdk/client-ec2";
import type { CloudConfig, CloudDriverName } from "../../config/provider-config-types.js";
import type { OutboundPolicy } from "../../net/outbound-guard.js";

/** Knobs for tests and operators; production defaults suit a real cloud. */
export interface CloudProviderOptions {
  /** ec2: a ready client (tests hand in one mocked by aws-sdk-client-mock). */
  ec2Client?: EC2Client;
  /**
   * Which addresses the cloud's API endpoints may be at: every driver's calls go through the
   * outbound guard with it (default: the Internet's only).
   */
  outbound?: OutboundPolicy;
  /** gce: where the Compute client sends its REST calls and how it authenticates (tests: a double). */
  gceClient?: { apiEndpoint: string; port: number; protocol: "http" | "https"; authClient: unknown };
  /**
   * azure: the certificate (PEM) to trust for the authority host and Resource Manager instead
   * of the system's (tests: the double's own; both speak TLS only, as Azure's SDK insists).
   */
  azureCa?: string;
  /** SSH port of the machines; otherwise the service's `ssh_port`, otherwise 22. */
  sshPort?: number;
  /** Between two polls of an instance's state (default 5000). */
  pollIntervalMs?: number;
  /** How long an instance may take to run, or to be gone (default 600000). */
  stateTimeoutMs?: number;
  /** Overrides the service's `ssh_timeout` (seconds, default 300). */
  sshTimeoutMs?: number;
  /** Between two SSH probes (default 3000). */
  sshPollIntervalMs?: number;
  /** How long a service's `post_create_script` may run (default 600000). */
  postCreateTimeoutMs?: number;
}

/** Timings only the code sets (tests shorten them): how long the cloud may take. */
interface CloudTimings {
  pollIntervalMs: number;
  stateTimeoutMs: number;
  postCreateTimeoutMs: number;
}

/** A cloud configuration with the knobs of CloudProviderOptions applied: what a driver and the lifecycle run on. */
export type CloudSettings<D extends CloudDriverName = CloudDriverName> = Extract<CloudConfig, { driver: D }> & CloudTimings;

export function cloudSettings<C extends CloudConfig>(config: C, options: CloudProviderOptions = {}): C & CloudTimings {
  const timings: CloudTimings = {
    pollIntervalMs: options.pollIntervalMs ?? 5000,
    stateTimeoutMs: options.stateTimeoutMs ?? 600_000,
    postCreateTimeoutMs: options.postCreateTimeoutMs ?? 600_000,
  };
  return Object.assign({}, config, timings, {
    sshPort: options.sshPort ?? config.sshPort,
    sshTimeoutMs: options.sshTimeoutMs ?? config.sshTimeoutMs,
    sshPollIntervalMs: options.sshPollIntervalMs ?? config.sshPollIntervalMs,
  });
}

/** Tags (ec2) and metadata (nova) that mark a resource as ours and say whose it is. */
export const TAG_SESSION = "benchwright:session";
export const TAG_MANAGED = "benchwright:managed";

/** Names of what we create: the session id in them lets a sweep find key pairs without tags. */
export function resourceName(sessionId: string): string {
  return `benchwright-${sessionId}-${Math.random().toString(36).slice(2, 8)}`;
}

export function sessionFromName(name: string): string | null {
  const m = /^benchwright-(.+)-[0-9a-z]{1,8}$/.exec(name);
  return m ? m[1] : null;
}
