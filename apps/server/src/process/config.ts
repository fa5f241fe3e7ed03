import { isIP } from "node:net";
import { resolve } from "node:path";
import { DEFAULT_MAX_STEP_TIMEOUT_S, type OutboundPolicy, type WebhookOptions } from "@benchwright/engine";
import { DEFAULT_MAX_EVENT_SUBSCRIBERS } from "../api/event-stream.js";
import { parseCorsOrigins } from "../http/cors.js";
import { settingList } from "../setting-list.js";
import { parseHostEntry } from "../http/cross-site.js";
import type { Quotas, RateLimit } from "../principals/rate-limit.js";
import type { Role } from "../principals/principal.js";
import { DEFAULT_PROVIDER_ROLES } from "../principals/roles.js";
import { logFormatOf, logLevelOf, type LogFormat, type LogLevelName } from "../operations/logger.js";

export interface ServerConfig {
  host: string;
  port: number;
  dataDir: string;
  configDir: string;
  /** `BENCHWRIGHT_BUILTIN_LOCAL=false`: no built-in `local` configuration when the config dir has no provider file (on by default). */
  builtinLocal?: boolean;
  databaseUrl?: string;
  token?: string;
  /** Origins whose pages may call the server (`BENCHWRIGHT_CORS_ORIGINS`, comma-separated); none by default. */
  corsOrigins?: string[];
  /** Other servers' origins the dashboard at /ui/ may call when opened with `?api=` (`BENCHWRIGHT_UI_API_ORIGINS`); none by default. */
  uiApiOrigins?: string[];
  /**
   * Hosts a request may name in `Host` when no token is set, beside the server's own names
   * (`BENCHWRIGHT_ALLOWED_HOSTS`, comma-separated `name` or `name:port`; `*` for any).
   */
  allowedHosts?: string[];
  /**
   * The role each stored provider configuration needs, by name, beside the defaults (`local` and
   * `inline`, a configuration sent with a request, are the admin's): `BENCHWRIGHT_PROVIDER_ROLES`,
   * comma-separated `name=role`. A configuration not named is an operator's.
   */
  providerRoles?: Record<string, Role>;
  insecure: boolean;
  /** Whether this process runs steps too (`BENCHWRIGHT_WORKER=false`: it serves and leaves steps to workers). */
  work?: boolean;
  /** pg-boss's schema on PostgreSQL (`BENCHWRIGHT_QUEUE_SCHEMA`); the engine picks one by default. */
  queueSchema?: string;
  /** How long a stop (SIGTERM) may take before the process exits anyway; `BENCHWRIGHT_STOP_TIMEOUT` seconds, default 10. */
  stopTimeoutMs?: number;
  /** `LOG_LEVEL`: fatal, error, warn, info (default), debug, trace or silent. */
  logLevel?: LogLevelName;
  /** `BENCHWRIGHT_LOG_FORMAT`: pretty or json; by default pretty on a terminal, json elsewhere. */
  logFormat?: LogFormat;
  /** `BENCHWRIGHT_METRICS_PUBLIC=true`: `GET /metrics` needs no token. */
  metricsPublic?: boolean;
  /** `BENCHWRIGHT_MAX_EVENT_SUBSCRIBERS`: event streams this process holds open at once; more are refused (429). */
  maxEventSubscribers?: number;
  /**
   * `BENCHWRIGHT_RATE_LIMIT_RPS`: requests a second each principal may send, counted across
   * every server on the database; `BENCHWRIGHT_RATE_LIMIT_BURST`: how many at once after a pause
   * (default: the rate, rounded up). Unset: no limit.
   */
  rateLimit?: RateLimit;
  /**
   * `BENCHWRIGHT_QUOTA_SESSIONS`: live sessions each principal may have; `BENCHWRIGHT_QUOTA_STEPS`:
   * executions of its sessions preparing or running at once. Unset: no quota.
   */
  quotas?: Quotas;
  /** The most seconds a session's `step_timeout` may be; `BENCHWRIGHT_MAX_STEP_TIMEOUT`, default a day. */
  maxStepTimeoutS?: number;
  /**
   * `BENCHWRIGHT_ALLOW_PRIVATE_ENDPOINTS=true`: cloud endpoints may be on loopback, private,
   * link-local or metadata addresses (a cloud inside the operator's network). Off by default:
   * a configuration sent over the API could otherwise make the server call into its own network.
   */
  allowPrivateEndpoints?: boolean;
  /**
   * `BENCHWRIGHT_ALLOW_PRIVATE_WEBHOOKS=true`: webhooks may be on loopback, private or link-local
   * addresses (a receiver inside the operator's network; the tests' receivers). Off by default:
   * whoever may create a webhook could otherwise make the server POST into its own network.
   */
  allowPrivateWebhooks?: boolean;
  /**
   * `BENCHWRIGHT_SCHEDULE_MIN_INTERVAL`: the fewest seconds between two ticks of a plan's schedule,
   * default 60; a plan whose cron fires more often is refused.
   */
  scheduleMinIntervalS?: number;
}

/** Reads the environment (see docs/configuration.md); `--insecure` is the only flag. */
export function readConfig(env: NodeJS.ProcessEnv = process.env, argv: string[] = process.argv.slice(2)): ServerConfig {
  const port = Number(env.PORT ?? 5000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, not '${env.PORT}'`);
  const stopSeconds = Number(env.BENCHWRIGHT_STOP_TIMEOUT ?? 10);
  if (!(stopSeconds > 0)) throw new Error(`BENCHWRIGHT_STOP_TIMEOUT must be a number of seconds, not '${env.BENCHWRIGHT_STOP_TIMEOUT}'`);
  return {
    host: env.HOST ?? "127.0.0.1",
    port,
    dataDir: resolve(env.BENCHWRIGHT_DATA_DIR ?? ".benchwright"),
    configDir: resolve(env.BENCHWRIGHT_CONFIG_DIR ?? "config"),
    builtinLocal: !/^(false|0|no|off)$/i.test(env.BENCHWRIGHT_BUILTIN_LOCAL ?? ""),
    databaseUrl: env.DATABASE_URL || undefined,
    token: env.BENCHWRIGHT_API_TOKEN || undefined,
    corsOrigins: parseCorsOrigins(env.BENCHWRIGHT_CORS_ORIGINS),
    uiApiOrigins: parseUiApiOrigins(env.BENCHWRIGHT_UI_API_ORIGINS),
    allowedHosts: parseAllowedHosts(env.BENCHWRIGHT_ALLOWED_HOSTS),
    providerRoles: parseProviderRoles(env.BENCHWRIGHT_PROVIDER_ROLES),
    insecure: argv.includes("--insecure"),
    work: !/^(false|0|no|off)$/i.test(env.BENCHWRIGHT_WORKER ?? ""),
    queueSchema: env.BENCHWRIGHT_QUEUE_SCHEMA || undefined,
    stopTimeoutMs: stopSeconds * 1000,
    logLevel: logLevelOf(env),
    logFormat: logFormatOf(env),
    metricsPublic: isOn(env.BENCHWRIGHT_METRICS_PUBLIC),
    maxEventSubscribers: wholeNumberSetting(env, "BENCHWRIGHT_MAX_EVENT_SUBSCRIBERS", DEFAULT_MAX_EVENT_SUBSCRIBERS, "subscribers"),
    rateLimit: rateLimitOf(env),
    quotas: {
      sessions: optionalWholeNumber(env, "BENCHWRIGHT_QUOTA_SESSIONS", "sessions"),
      steps: optionalWholeNumber(env, "BENCHWRIGHT_QUOTA_STEPS", "steps"),
    },
    maxStepTimeoutS: wholeNumberSetting(env, "BENCHWRIGHT_MAX_STEP_TIMEOUT", DEFAULT_MAX_STEP_TIMEOUT_S, "seconds"),
    allowPrivateEndpoints: isOn(env.BENCHWRIGHT_ALLOW_PRIVATE_ENDPOINTS),
    allowPrivateWebhooks: isOn(env.BENCHWRIGHT_ALLOW_PRIVATE_WEBHOOKS),
    scheduleMinIntervalS: wholeNumberSetting(env, "BENCHWRIGHT_SCHEDULE_MIN_INTERVAL", 60, "seconds"),
  };
}

/** The engine's policy for its outbound calls, from the configuration. */
export function outboundPolicyOf(config: Pick<ServerConfig, "allowPrivateEndpoints">): OutboundPolicy {
  return { allowPrivate: config.allowPrivateEndpoints === true };
}

/** The engine's options for webhooks, from the configuration. */
export function webhookOptionsOf(config: Pick<ServerConfig, "allowPrivateWebhooks">): WebhookOptions {
  return { allowPrivate: config.allowPrivateWebhooks === true };
}

export function isLoopback(host: string): boolean {
  if (host === "localhost") return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  return host === "::1";
}

/** Without a token the API is open to whoever reaches it: only loopback, unless told otherwise. */
export function assertSafeToListen(config: ServerConfig): void {
  if (!isLoopback(config.host) && !config.token && !config.insecure) {
    throw new Error(`Refusing to listen on ${config.host} without BENCHWRIGHT_API_TOKEN: set a token, or pass --insecure if the network is trusted`);
  }
}

/** `BENCHWRIGHT_ALLOWED_HOSTS`: `name`, `name:port`, `[v6]:port` or `*`, comma-separated; anything else keeps the process from starting. */
export function parseAllowedHosts(value: string | undefined): string[] {
  const hosts = settingList(value);
  for (const host of hosts) {
    if (host !== "*" && !parseHostEntry(host)) {
      throw new Error(`BENCHWRIGHT_ALLOWED_HOSTS: '${host}' is not a host (name, name:port, [IPv6]:port, or *)`);
    }
  }
  return hosts;
}

/** The rate limit the environment sets, if any; a rate that is not a positive number keeps the process from starting. */
function rateLimitOf(env: NodeJS.ProcessEnv): RateLimit | undefined {
  const raw = env.BENCHWRIGHT_RATE_LIMIT_RPS?.trim();
  if (!raw) return undefined;
  const rps = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || !Number.isFinite(rps) || rps <= 0) {
    throw new Error(`BENCHWRIGHT_RATE_LIMIT_RPS must be a positive number of requests a second, not '${env.BENCHWRIGHT_RATE_LIMIT_RPS}'`);
  }
  return { rps, burst: wholeNumberSetting(env, "BENCHWRIGHT_RATE_LIMIT_BURST", Math.ceil(rps), "requests") };
}

/** A count of at least 1, or undefined when unset or empty. */
function optionalWholeNumber(env: NodeJS.ProcessEnv, name: string, unit: string): number | undefined {
  return env[name]?.trim() ? wholeNumberSetting(env, name, 1, unit) : undefined;
}

/** `BENCHWRIGHT_PROVIDER_ROLES`: `name=role`, comma-separated, over the defaults; anything else keeps the process from starting. */
export function parseProviderRoles(value: string | undefined): Record<string, Role> {
  const roles: Record<string, Role> = { ...DEFAULT_PROVIDER_ROLES };
  for (const entry of settingList(value)) {
    const [name, role, ...more] = entry.split("=").map((x) => x.trim());
    if (!name || more.length || !["viewer", "operator", "admin"].includes(role ?? "")) {
      throw new Error(`BENCHWRIGHT_PROVIDER_ROLES: '${entry}' is not name=viewer|operator|admin`);
    }
    roles[name] = role as Role;
  }
  return roles;
}

/** A switch that is off unless said otherwise. */
function isOn(value: string | undefined): boolean {
  return /^(true|1|yes|on)$/i.test(value ?? "");
}

/** A count of at least 1 (unset or empty: the default); anything else keeps the process from starting. */
function wholeNumberSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, unit: string): number {
  const raw = env[name]?.trim() || String(fallback);
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < 1) {
    throw new Error(`${name} must be a whole number of ${unit}, at least 1, not '${env[name]}'`);
  }
  return value;
}

/** `BENCHWRIGHT_UI_API_ORIGINS`: comma-separated origins (scheme://host[:port]), written into the dashboard's connect-src. */
function parseUiApiOrigins(value: string | undefined): string[] {
  const origins = settingList(value);
  for (const origin of origins) {
    if (!URL.canParse(origin) || !/^https?:$/.test(new URL(origin).protocol) || new URL(origin).origin !== origin.replace(/\/$/, ""))
      throw new Error(`BENCHWRIGHT_UI_API_ORIGINS: '${origin}' is not an origin (http(s)://host[:port])`);
  }
  return origins.map((o) => new URL(o).origin);
}
