import { describe, expect, it } from "vitest";
import { assertSafeToListen, isLoopback, outboundPolicyOf, parseProviderRoles, readConfig, webhookOptionsOf } from "./config.js";

describe("server configuration", () => {
  it("defaults to 127.0.0.1:5000 with the embedded database", () => {
    const config = readConfig({}, []);
    expect(config).toMatchObject({ host: "127.0.0.1", port: 5000, insecure: false });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.dataDir).toMatch(/\.benchwright$/);
    expect(config.configDir).toMatch(/config$/);
  });

  it("refuses a non-loopback address without a token, unless --insecure", () => {
    expect(() => assertSafeToListen(readConfig({ HOST: "0.0.0.0" }, []))).toThrow(/BENCHWRIGHT_API_TOKEN/);
    expect(() => assertSafeToListen(readConfig({ HOST: "0.0.0.0", BENCHWRIGHT_API_TOKEN: "t" }, []))).not.toThrow();
    expect(() => assertSafeToListen(readConfig({ HOST: "0.0.0.0" }, ["--insecure"]))).not.toThrow();
    expect(() => assertSafeToListen(readConfig({ HOST: "127.0.0.2" }, []))).not.toThrow();
  });

  it("reads the dashboard's other API origins, and refuses what is not an origin", () => {
    expect(readConfig({}, []).uiApiOrigins).toEqual([]);
    expect(readConfig({ BENCHWRIGHT_UI_API_ORIGINS: "https://b.example.org/, http://127.0.0.1:4010" }, []).uiApiOrigins).toEqual([
      "https://b.example.org",
      "http://127.0.0.1:4010",
    ]);
    for (const bad of ["b.example.org", "https://b.example.org/api", "ftp://b.example.org", "'unsafe-inline'"])
      expect(() => readConfig({ BENCHWRIGHT_UI_API_ORIGINS: bad }, []), bad).toThrow(/BENCHWRIGHT_UI_API_ORIGINS/);
  });

  it("knows loopback addresses", () => {
    expect(["127.0.0.1", "127.1.2.3", "::1", "localhost"].every(isLoopback)).toBe(true);
    expect(["0.0.0.0", "10.0.0.1", "::", "example.org"].some(isLoopback)).toBe(false);
  });

  it("refuses a PORT that is not a port", () => {
    expect(() => readConfig({ PORT: "http" }, [])).toThrow(/PORT/);
  });

  it("logs at LOG_LEVEL, info by default, and refuses a level that does not exist", () => {
    expect(readConfig({}, []).logLevel).toBe("info");
    expect(readConfig({ LOG_LEVEL: " Debug " }, []).logLevel).toBe("debug");
    expect(() => readConfig({ LOG_LEVEL: "verbose" }, [])).toThrow("LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, not 'verbose'");
  });

  it("keeps /metrics behind the token unless BENCHWRIGHT_METRICS_PUBLIC is true", () => {
    expect(readConfig({}, []).metricsPublic).toBe(false);
    expect(readConfig({ BENCHWRIGHT_METRICS_PUBLIC: "true" }, []).metricsPublic).toBe(true);
    expect(readConfig({ BENCHWRIGHT_METRICS_PUBLIC: "no" }, []).metricsPublic).toBe(false);
  });

  it("limits each principal to BENCHWRIGHT_RATE_LIMIT_RPS requests a second, bursts of the rate unless BENCHWRIGHT_RATE_LIMIT_BURST, and none unset", () => {
    expect(readConfig({}, []).rateLimit).toBeUndefined();
    expect(readConfig({ BENCHWRIGHT_RATE_LIMIT_RPS: "" }, []).rateLimit).toBeUndefined();
    expect(readConfig({ BENCHWRIGHT_RATE_LIMIT_RPS: "20" }, []).rateLimit).toEqual({ rps: 20, burst: 20 });
    expect(readConfig({ BENCHWRIGHT_RATE_LIMIT_RPS: "0.5" }, []).rateLimit).toEqual({ rps: 0.5, burst: 1 });
    expect(readConfig({ BENCHWRIGHT_RATE_LIMIT_RPS: "5", BENCHWRIGHT_RATE_LIMIT_BURST: "40" }, []).rateLimit).toEqual({ rps: 5, burst: 40 });
    for (const bad of ["0", "-3", "many", "1e309", "Infinity"]) {
      expect(() => readConfig({ BENCHWRIGHT_RATE_LIMIT_RPS: bad }, []), bad).toThrow(`BENCHWRIGHT_RATE_LIMIT_RPS must be a positive number`);
    }
    expect(() => readConfig({ BENCHWRIGHT_RATE_LIMIT_RPS: "5", BENCHWRIGHT_RATE_LIMIT_BURST: "0" }, [])).toThrow(
      "BENCHWRIGHT_RATE_LIMIT_BURST must be a whole number",
    );
  });

  it("sets each principal's quotas of live sessions and steps under way from BENCHWRIGHT_QUOTA_SESSIONS and _STEPS, none unset", () => {
    expect(readConfig({}, []).quotas).toEqual({ sessions: undefined, steps: undefined });
    expect(readConfig({}, []).scheduleMinIntervalS).toBe(60);
    expect(readConfig({ BENCHWRIGHT_SCHEDULE_MIN_INTERVAL: "300" }, []).scheduleMinIntervalS).toBe(300);
    expect(() => readConfig({ BENCHWRIGHT_SCHEDULE_MIN_INTERVAL: "0" }, [])).toThrow(/BENCHWRIGHT_SCHEDULE_MIN_INTERVAL/);
    expect(readConfig({ BENCHWRIGHT_QUOTA_SESSIONS: "3", BENCHWRIGHT_QUOTA_STEPS: "" }, []).quotas).toEqual({ sessions: 3, steps: undefined });
    expect(readConfig({ BENCHWRIGHT_QUOTA_STEPS: "2" }, []).quotas).toEqual({ sessions: undefined, steps: 2 });
    for (const bad of ["0", "-1", "2.5", "many"]) {
      expect(() => readConfig({ BENCHWRIGHT_QUOTA_SESSIONS: bad }, []), bad).toThrow(
        `BENCHWRIGHT_QUOTA_SESSIONS must be a whole number of sessions, at least 1, not '${bad}'`,
      );
    }
  });

  it("holds BENCHWRIGHT_MAX_EVENT_SUBSCRIBERS event streams open at once, 1000 by default, and refuses a count that is none", () => {
    expect(readConfig({}, []).maxEventSubscribers).toBe(1000);
    expect(readConfig({ BENCHWRIGHT_MAX_EVENT_SUBSCRIBERS: "" }, []).maxEventSubscribers).toBe(1000);
    expect(readConfig({ BENCHWRIGHT_MAX_EVENT_SUBSCRIBERS: "50" }, []).maxEventSubscribers).toBe(50);
    for (const bad of ["0", "-3", "2.5", "many", "1e309"]) {
      expect(() => readConfig({ BENCHWRIGHT_MAX_EVENT_SUBSCRIBERS: bad }, []), bad).toThrow(
        `BENCHWRIGHT_MAX_EVENT_SUBSCRIBERS must be a whole number of subscribers, at least 1, not '${bad}'`,
      );
    }
  });

  it("bounds a session's step_timeout by BENCHWRIGHT_MAX_STEP_TIMEOUT seconds, 24 h by default", () => {
    expect(readConfig({}, []).maxStepTimeoutS).toBe(86_400);
    expect(readConfig({ BENCHWRIGHT_MAX_STEP_TIMEOUT: "3600" }, []).maxStepTimeoutS).toBe(3600);
    for (const wrong of ["0", "-1", "1.5", "a day"]) {
      expect(() => readConfig({ BENCHWRIGHT_MAX_STEP_TIMEOUT: wrong }, []), wrong).toThrow(
        `BENCHWRIGHT_MAX_STEP_TIMEOUT must be a whole number of seconds, at least 1, not '${wrong}'`,
      );
    }
  });

  it("lets cloud endpoints be on private addresses only when BENCHWRIGHT_ALLOW_PRIVATE_ENDPOINTS is true", () => {
    expect(outboundPolicyOf(readConfig({}, []))).toEqual({ allowPrivate: false });
    expect(outboundPolicyOf(readConfig({ BENCHWRIGHT_ALLOW_PRIVATE_ENDPOINTS: "true" }, []))).toEqual({ allowPrivate: true });
    expect(outboundPolicyOf(readConfig({ BENCHWRIGHT_ALLOW_PRIVATE_ENDPOINTS: "off" }, []))).toEqual({ allowPrivate: false });
  });

  it("lets webhooks be on private addresses only when BENCHWRIGHT_ALLOW_PRIVATE_WEBHOOKS is true, apart from cloud endpoints", () => {
    expect(webhookOptionsOf(readConfig({}, []))).toEqual({ allowPrivate: false });
    expect(webhookOptionsOf(readConfig({ BENCHWRIGHT_ALLOW_PRIVATE_WEBHOOKS: "true" }, []))).toEqual({ allowPrivate: true });
    expect(webhookOptionsOf(readConfig({ BENCHWRIGHT_ALLOW_PRIVATE_ENDPOINTS: "true" }, []))).toEqual({ allowPrivate: false });
    expect(outboundPolicyOf(readConfig({ BENCHWRIGHT_ALLOW_PRIVATE_WEBHOOKS: "true" }, []))).toEqual({ allowPrivate: false });
  });
});

describe("BENCHWRIGHT_PROVIDER_ROLES", () => {
  it("keeps local and inline configurations the admin's unless told otherwise", () => {
    expect(parseProviderRoles(undefined)).toEqual({ local: "admin", inline: "admin" });
    expect(parseProviderRoles("local=operator, aws=admin")).toEqual({ local: "operator", inline: "admin", aws: "admin" });
    expect(readConfig({ BENCHWRIGHT_PROVIDER_ROLES: "gce=viewer" }, []).providerRoles).toEqual({ local: "admin", inline: "admin", gce: "viewer" });
  });

  it("refuses an entry that is not name=role", () => {
    expect(() => parseProviderRoles("local=root")).toThrow(/'local=root' is not name=viewer\|operator\|admin/);
    expect(() => parseProviderRoles("local")).toThrow(/BENCHWRIGHT_PROVIDER_ROLES/);
    expect(() => parseProviderRoles("a=admin=x")).toThrow(/BENCHWRIGHT_PROVIDER_ROLES/);
  });
});
