import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BenchwrightError } from "../errors.js";
import { parseProviderConfig } from "./parse-provider-config.js";
import { loadProviderConfigs, resolveInline, resolveStored } from "./provider-config.js";

const local = (service: Record<string, unknown>) => parseProviderConfig(resolveInline({ provider: { class: "local" }, bench: service }));

function refusal(service: Record<string, unknown>): BenchwrightError {
  try {
    local(service);
  } catch (e) {
    if (e instanceof BenchwrightError) return e;
    throw e;
  }
  throw new Error("the configuration was taken");
}

describe("a service type's price", () => {
  it("is absent without price_per_hour, USD by default, and in the currency given", () => {
    expect(local({}).price).toBeUndefined();
    expect(local({ price_per_hour: 0.1 }).price).toEqual({ perHour: 0.1, currency: "USD" });
    expect(local({ price_per_hour: 0, currency: "EUR" }).price).toEqual({ perHour: 0, currency: "EUR" });
  });

  it("reads a stored INI configuration's text as a number", () => {
    const dir = mkdtempSync(join(tmpdir(), "bw-price-"));
    mkdirSync(join(dir, "providers"));
    writeFileSync(join(dir, "providers", "here.conf"), "[provider]\nclass = local\n\n[bench]\nprice_per_hour = 0.25\ncurrency = GBP\n");
    const configs = loadProviderConfigs(dir);
    expect(parseProviderConfig(resolveStored(configs, "here", "bench")).price).toEqual({ perHour: 0.25, currency: "GBP" });
  });

  it.each([
    [{ price_per_hour: -0.1 }, "bench.price_per_hour is -0.1: must be a number of at least 0"],
    [{ price_per_hour: "ten" }, "bench.price_per_hour is 'ten': must be a number of at least 0"],
    [{ price_per_hour: true }, "bench.price_per_hour is true: must be a number of at least 0"],
    [{ price_per_hour: 1, currency: "usd" }, "bench.currency is 'usd': must be an ISO 4217 code"],
    [{ price_per_hour: 1, currency: "EURO" }, "bench.currency is 'EURO': must be an ISO 4217 code"],
    [{ price_per_hour: 1, currency: 978 }, "bench.currency is 978: must be an ISO 4217 code"],
    [{ currency: "EUR" }, "bench.currency is given without price_per_hour"],
  ])("refuses %j, naming the field", (service, detail) => {
    const e = refusal(service);
    expect(e.code).toBe("invalid_configuration");
    expect(e.detail).toContain(detail);
    expect(e.extras.errors?.[0]?.path).toMatch(/^\/config\/bench\/(price_per_hour|currency)$/);
  });
});
