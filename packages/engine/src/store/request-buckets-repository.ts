import type { Db } from "./db.js";
import { takeRequestToken } from "./sql/request-buckets-sql.js";
import { run } from "./sql/sql.js";

/** Whether a request may go, and when the next one may (seconds; 0 when one may at once). */
export interface RequestTake {
  allowed: boolean;
  retryAfterS: number;
}

/**
 * The rate limit's token buckets, one per principal, in the database: every server on it (or
 * the one process on PGlite) counts against the same bucket. One statement per request.
 */
export class RequestBucketsRepository {
  constructor(private readonly db: Db) {}

  /** Takes a token from `principal`'s bucket, which refills at `rate` a second up to `burst`. */
  async take(principal: string, rate: number, burst: number): Promise<RequestTake> {
    const [row] = await run<{ allowed: boolean; tokens: number }>(this.db, takeRequestToken(principal, rate, burst));
    const tokens = Number(row!.tokens);
    return { allowed: row!.allowed, retryAfterS: tokens >= 1 ? 0 : (1 - tokens) / rate };
  }
}
