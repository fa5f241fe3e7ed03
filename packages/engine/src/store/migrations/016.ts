import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 16,
  name: "audit log of state-changing requests; the rate limit's request buckets",
  // One row per state-changing request, written when its answer has gone: who, which operation,
  // the path with its ids, the outcome and the request id; never a body or a header. Lists read
  // it by seq (its order of writing) and filter by principal, operation, time and outcome.
  // request_buckets holds one token bucket per principal, shared by every server on the
  // database: one UPDATE per request, timed by the database's clock; UNLOGGED, as a bucket lost
  // in a crash only refills early, and a write without the WAL's flush is what one per request affords.
  // Quotas count a principal's sessions by their owner (migration 15).
  sql: `
    CREATE TABLE audit_log (
      seq bigserial PRIMARY KEY,
      at timestamptz NOT NULL DEFAULT clock_timestamp(),
      principal text NOT NULL,
      operation text,
      method text NOT NULL,
      path text NOT NULL,
      status integer NOT NULL,
      code text,
      request_id text NOT NULL
    );
    CREATE INDEX audit_log_principal ON audit_log(principal, seq);
    CREATE INDEX audit_log_at ON audit_log(at);
    CREATE INDEX audit_log_request ON audit_log(request_id);
    CREATE UNLOGGED TABLE request_buckets (
      principal text PRIMARY KEY,
      tokens double precision NOT NULL,
      at timestamptz NOT NULL,
      allowed boolean NOT NULL
    );
  `,
};
