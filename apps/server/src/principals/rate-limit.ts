import type { RequestHandler } from "express";
import { BenchwrightError, type Engine } from "@benchwright/engine";
import { principalOf } from "./principal.js";

/** Requests a second each principal may send, and how many it may send at once after a pause. */
export interface RateLimit {
  rps: number;
  burst: number;
}

/** What each principal may have at once, counted across every server on the database; unlimited where unset. */
export interface Quotas {
  /** Live sessions it made (BENCHWRIGHT_QUOTA_SESSIONS). */
  sessions?: number;
  /** Executions of its sessions preparing or running (BENCHWRIGHT_QUOTA_STEPS). */
  steps?: number;
}

/**
 * Refuses a principal's request beyond its rate with `429 rate_limited` and `Retry-After`, before
 * the request is read further. The count is a token bucket in the database (Engine.takeRequestToken):
 * every server on one PostgreSQL shares it, and on PGlite the one process counts the same way.
 */
export function rateLimit(engine: Engine, limit: RateLimit): RequestHandler {
  return (_req, res, next) => {
    const principal = principalOf(res).id;
    engine.takeRequestToken(principal, limit.rps, limit.burst).then((take) => {
      if (take.allowed) return next();
      const retryAfter = Math.max(1, Math.ceil(take.retryAfterS));
      next(
        new BenchwrightError("rate_limited", `${principal} sent more than ${limit.rps} requests a second; try again in ${retryAfter} s`, {
          retry_after: retryAfter,
        }),
      );
    }, next);
  };
}
