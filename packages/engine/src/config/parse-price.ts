import { describeValue } from "./config-problem.js";
import type { ConfigSection, ServiceKey } from "./config-section.js";
import type { ServicePrice } from "./provider-config-types.js";

/** ISO 4217 codes are three capital letters; which ones exist is the operator's business, not ours. */
const CURRENCY = /^[A-Z]{3}$/;

/**
 * A service type's `price_per_hour` (at least 0) and `currency` (USD when unset). A currency
 * without a price is refused rather than ignored: it most likely means the price's key is misspelt.
 */
export function parsePrice(service: ConfigSection<ServiceKey>): ServicePrice | undefined {
  const perHour = service.nonNegative("price_per_hour");
  const given = service.raw("currency");
  let currency: string | undefined;
  if (given !== undefined && given !== null) {
    if (typeof given === "string" && CURRENCY.test(given.trim())) currency = given.trim();
    else service.report("currency", describeValue("currency", given), "must be an ISO 4217 code: three capital letters, such as USD or EUR");
  }
  if (perHour === undefined) {
    if (currency !== undefined) service.report("currency", "is given without price_per_hour", "give price_per_hour with it, or leave currency out");
    return undefined;
  }
  return { perHour, currency: currency ?? "USD" };
}
