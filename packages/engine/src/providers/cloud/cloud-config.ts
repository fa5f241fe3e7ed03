import type { EC2Client } from "@aws-sdk/client-ec2";
import { BenchwrightError } from "../../errors.js";
import type { ResolvedConfig } from "../provider.js";

export const CLOUD_DRIVERS = ["ec2", "openstack", "gce"] as const;
export type CloudDriverName = (typeof CLOUD_DRIVERS)[number];

/** Knobs for tests and operators; production defaults suit a real cloud. */
export interface CloudProviderOptions {
  /** ec2: a ready client (tests hand in one mocked by aws-sdk-client-mock). */
  ec2Client?: EC2Client;
  /** openstack: the fetch used for every API call. */
  fetch?: typeof fetch;
  /** gce: where the Compute client sends its REST calls and how it authenticates (tests: a double). */
  gceClient?: { apiEndpoint: string; port: number; protocol: "http" | "https"; authClient: unknown };
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

export interface CloudSettings {
  driver: CloudDriverName;
  accessId: string;
  secretKey: string;
  region?: string;
  endpoint?: string;
  authUrl?: string;
  authVersion?: string;
  tenant: string;
  domain: string;
  /** gce: the project machines are made in. */
  project?: string;
  image: string;
  size: string;
  vmUser: string;
  platform: string;
  keyName?: string;
  sshPrivateKey?: string;
  network?: string;
  securityGroup?: string;
  noFloatingIp: boolean;
  floatingIpPool?: string;
  sshPort: number;
  pollIntervalMs: number;
  stateTimeoutMs: number;
  /** Infinity when only the ancestor's retry count bounds the wait. */
  sshTimeoutMs: number;
  sshPollIntervalMs: number;
  /** SSH probes before giving up (`new_vm.connection_retry_times`); unbounded when unset. */
  sshAttempts?: number;
  /** Run once on each new machine, over SSH, before anything else. */
  postCreateScript?: string;
  postCreateTimeoutMs: number;
  /** Where step dirs go on the machines: below the service's `working_dir`, else the login home. */
  workRoot: string;
}

/**
 * The Benchmarking Suite's spellings of provider-level keys (benchsuite-stdlib's
 * LibcloudComputeProvider read them from the `[provider]` section).
 */
export const ANCESTOR_KEYS = {
  noFloatingIp: "benchsuite.openstack.no_floating_ip",
  retryPeriod: "new_vm.connection_retry_period",
  retryTimes: "new_vm.connection_retry_times",
} as const;

/** The ancestor's defaults when only one of the two retry keys is given: 20 tries, 30 s apart. */
const ANCESTOR_RETRY_TIMES = 20;
const ANCESTOR_RETRY_PERIOD_S = 30;

function str(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = String(value).trim();
  return text === "" ? undefined : text;
}

function bool(value: unknown): boolean {
  if (typeof value === "boolean") return value;
  return ["true", "1", "yes", "on"].includes(String(value ?? "").trim().toLowerCase());
}

function positive(value: unknown): number | undefined {
  const n = Number(str(value));
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/** A key of the service section, else of the provider section, where the ancestor put it. */
function either(config: ResolvedConfig, serviceKey: string, providerKey = serviceKey): unknown {
  return str(config.service[serviceKey]) !== undefined ? config.service[serviceKey] : config.provider[providerKey];
}

/**
 * The login user when the configuration names none, as the ancestor guessed it from the
 * platform or the image name (`ubuntu`, `centos`, else `root`); Debian's cloud images log in
 * as `debian`, which the ancestor predates.
 */
export function guessVmUser(platform: string, image: string): string {
  const text = `${platform} ${image}`.toLowerCase();
  for (const user of ["ubuntu", "centos", "debian"]) if (text.includes(user)) return user;
  return "root";
}

/** Why a `working_dir` cannot be used, if it cannot: it must name one directory plainly. */
function workingDirProblem(dir: string): string | undefined {
  if (/[\x00-\x1f\x7f]/.test(dir)) return "must not contain control characters";
  if (/^~[^/]/.test(dir)) return "may start with ~/ but not ~user";
  if (dir.split("/").some((part) => part === "." || part === "..")) return "must not contain . or .. segments";
  return undefined;
}

/** `<working_dir>/.benchwright`: steps run below the directory asked for; a relative one is below the home. */
export function workRootOf(workingDir: string | undefined): string {
  if (workingDir === undefined) return "~/.benchwright";
  const dir = workingDir.replace(/\/+$/, "");
  if (dir === "") return "/.benchwright";
  const base = dir === "~" || dir.startsWith("~/") || dir.startsWith("/") ? dir : `~/${dir}`;
  return `${base}/.benchwright`;
}

export function driverOf(config: ResolvedConfig): string {
  return (str(config.provider.driver) ?? "").toLowerCase();
}

const REQUIRED: Record<CloudDriverName, { provider: string[]; service: string[] }> = {
  ec2: { provider: ["access_id", "secret_key", "region"], service: ["image", "size", "vm_user"] },
  // The ancestor took the project from access_id and guessed the user: neither is required.
  openstack: { provider: ["auth_url", "access_id", "secret_key"], service: ["image", "size"] },
  // A service account's email and private key; `region` is the zone.
  gce: { provider: ["access_id", "secret_key", "project", "region"], service: ["image", "size", "vm_user"] },
};

/** Keystone v3 with a password is all we speak; the ancestor spelled it `3.x_password`. */
const AUTH_VERSIONS = ["3", "3.x", "3.x_password", "v3"];

/** Missing or invalid fields, each as `{path, message}`. */
export function cloudConfigErrors(config: ResolvedConfig): Array<{ path: string; message: string }> {
  const errors: Array<{ path: string; message: string }> = [];
  const driver = driverOf(config);
  if (!(CLOUD_DRIVERS as readonly string[]).includes(driver)) {
    errors.push({ path: "provider.driver", message: `must be one of: ${CLOUD_DRIVERS.join(", ")}` });
    return errors;
  }
  const required = REQUIRED[driver as CloudDriverName];
  for (const field of required.provider) {
    if (!str(config.provider[field])) errors.push({ path: `provider.${field}`, message: "is required" });
  }
  for (const field of required.service) {
    if (!str(config.service[field])) errors.push({ path: `${config.serviceType}.${field}`, message: "is required" });
  }
  // A key pair named without its private key leaves us unable to log in to what we create;
  // a private key without a name is imported as the session's key pair.
  if (str(config.service.key_name) && !str(config.service.ssh_private_key)) {
    errors.push({ path: `${config.serviceType}.ssh_private_key`, message: "is required when key_name is given" });
  }
  for (const field of ["ssh_timeout", "ssh_port"]) {
    const value = config.service[field];
    if (str(value) !== undefined && positive(value) === undefined) {
      errors.push({ path: `${config.serviceType}.${field}`, message: "must be a positive number" });
    }
  }
  for (const field of [ANCESTOR_KEYS.retryPeriod, ANCESTOR_KEYS.retryTimes]) {
    const value = config.provider[field];
    if (str(value) !== undefined && positive(value) === undefined) {
      errors.push({ path: `provider.${field}`, message: "must be a positive number" });
    }
  }
  const times = str(config.provider[ANCESTOR_KEYS.retryTimes]);
  if (times !== undefined && positive(times) !== undefined && !Number.isInteger(Number(times))) {
    errors.push({ path: `provider.${ANCESTOR_KEYS.retryTimes}`, message: "must be a whole number" });
  }
  const workingDir = str(config.service.working_dir);
  const dirProblem = workingDir === undefined ? undefined : workingDirProblem(workingDir);
  if (dirProblem) errors.push({ path: `${config.serviceType}.working_dir`, message: dirProblem });
  if (driver === "openstack") {
    const version = str(config.provider.auth_version);
    if (version !== undefined && !AUTH_VERSIONS.includes(version.toLowerCase())) {
      errors.push({ path: "provider.auth_version", message: `must be one of: ${AUTH_VERSIONS.join(", ")}` });
    }
    const authUrl = str(config.provider.auth_url);
    if (authUrl && !/^https?:\/\//i.test(authUrl)) {
      errors.push({ path: "provider.auth_url", message: "must be an http(s) URL" });
    }
  }
  return errors;
}

/** Missing or invalid fields, one line each (`provider.region: is required`), like the other providers' validators. */
export function validateCloudConfig(config: ResolvedConfig): string[] {
  return cloudConfigErrors(config).map((e) => `${e.path}: ${e.message}`);
}

export function assertValidCloudConfig(config: ResolvedConfig): void {
  const errors = cloudConfigErrors(config);
  if (errors.length > 0) {
    throw new BenchwrightError(
      "invalid_configuration",
      `Configuration '${config.name}' is not usable: ${errors.map((e) => `${e.path}: ${e.message}`).join("; ")}`,
      { errors },
    );
  }
}

export function cloudSettings(config: ResolvedConfig, options: CloudProviderOptions = {}): CloudSettings {
  assertValidCloudConfig(config);
  const p = config.provider;
  const s = config.service;
  const platform = str(s.platform) ?? "";
  // The ancestor's connection retries: given either key, both apply (the other at its default)
  // and the count, not ssh_timeout's default, bounds the wait.
  const retryTimes = positive(p[ANCESTOR_KEYS.retryTimes]);
  const retryPeriodS = positive(p[ANCESTOR_KEYS.retryPeriod]);
  const retries = retryTimes !== undefined || retryPeriodS !== undefined;
  const sshTimeoutS = positive(s.ssh_timeout) ?? (retries ? Infinity : 300);
  return {
    driver: driverOf(config) as CloudDriverName,
    accessId: str(p.access_id)!,
    secretKey: str(p.secret_key)!,
    region: str(p.region),
    endpoint: str(p.endpoint),
    authUrl: str(p.auth_url),
    authVersion: str(p.auth_version),
    tenant: str(p.tenant) ?? str(p.access_id)!,
    domain: str(p.domain) ?? "Default",
    project: str(p.project),
    image: str(s.image)!,
    size: str(s.size)!,
    vmUser: str(s.vm_user) ?? guessVmUser(platform, str(s.image)!),
    platform,
    keyName: str(s.key_name),
    // Only the outer whitespace goes: the key's inner line ends matter.
    sshPrivateKey: str(s.ssh_private_key) ? String(s.ssh_private_key).trim() + "\n" : undefined,
    // The ancestor put these in the provider section; ours were per service type: both count.
    network: str(either(config, "network")),
    securityGroup: str(either(config, "security_group")),
    noFloatingIp: bool(either(config, "no_floating_ip", ANCESTOR_KEYS.noFloatingIp)),
    floatingIpPool: str(s.floating_ip_pool),
    sshPort: options.sshPort ?? positive(s.ssh_port) ?? 22,
    pollIntervalMs: options.pollIntervalMs ?? 5000,
    stateTimeoutMs: options.stateTimeoutMs ?? 600_000,
    sshTimeoutMs: options.sshTimeoutMs ?? sshTimeoutS * 1000,
    sshPollIntervalMs: options.sshPollIntervalMs ?? (retries ? (retryPeriodS ?? ANCESTOR_RETRY_PERIOD_S) * 1000 : 3000),
    sshAttempts: retries ? (retryTimes ?? ANCESTOR_RETRY_TIMES) : undefined,
    postCreateScript: str(s.post_create_script),
    postCreateTimeoutMs: options.postCreateTimeoutMs ?? 600_000,
    workRoot: workRootOf(str(s.working_dir)),
  };
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
