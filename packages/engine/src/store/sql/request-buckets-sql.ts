import type { Sql } from "./sql.js";

/**
 * Takes one request from the principal's token bucket, in one statement every server on the
 * database serializes on (the row's lock), timed by the database's clock so that the servers'
 * clocks need not agree. The bucket holds at most `burst` tokens and refills at `rate` a second;
 * a request that finds less than one token is refused and takes none. `allowed` says which, and
 * `tokens` what was left (how long to wait follows from it).
 */
export function takeRequestToken(principal: string, rate: number, burst: number): Sql {
  const refilled = "least($3::double precision, request_buckets.tokens + extract(epoch FROM clock_timestamp() - request_buckets.at) * $2::double precision)";
  return {
    text: `INSERT INTO request_buckets (principal, tokens, at, allowed) VALUES ($1, $3::double precision - 1, clock_timestamp(), true)
      ON CONFLICT (principal) DO UPDATE SET
        tokens = CASE WHEN ${refilled} >= 1 THEN ${refilled} - 1 ELSE ${refilled} END,
        allowed = ${refilled} >= 1,
        at = clock_timestamp()
      RETURNING allowed, tokens`,
    values: [principal, rate, burst],
  };
}
