import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 11,
  name: "webhooks: where alerts go, and each event's delivery to each of them",
  // A delivery is one event for one webhook: UNIQUE (webhook_id, event_key) makes two servers
  // that enqueue the same event make one. It is sent by the deliverer holding its lease.
  sql: `
    CREATE TABLE webhooks (
      id uuid PRIMARY KEY,
      seq bigserial UNIQUE,
      url text NOT NULL,
      secret_sealed text NOT NULL,
      events text[] NOT NULL,
      plan_id uuid REFERENCES plans(id) ON DELETE CASCADE,
      format text NOT NULL,
      created timestamptz NOT NULL
    );
    CREATE TABLE webhook_deliveries (
      id uuid PRIMARY KEY,
      seq bigserial UNIQUE,
      webhook_id uuid NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
      event text NOT NULL,
      event_key text NOT NULL,
      payload jsonb NOT NULL,
      state text NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz,
      owner text,
      lease_until timestamptz,
      last_status integer,
      last_error text,
      created timestamptz NOT NULL,
      delivered_at timestamptz,
      UNIQUE (webhook_id, event_key)
    );
    CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_attempt_at) WHERE state = 'pending';
    CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries(webhook_id, seq);
  `,
};
