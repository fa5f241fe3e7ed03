import type { AlertEvent, DeliveryState, WebhookRow } from "../../model/webhooks.js";
import { json, type Sql } from "./sql.js";

const WEBHOOK_COLUMNS = "id, seq::text AS seq, url, secret_sealed, events, plan_id, format, created";
/** The columns of a delivery, of the table aliased `t` when given. */
function deliveryColumns(t = ""): string {
  const p = t ? `${t}.` : "";
  return `${p}id, ${p}seq::text AS seq, ${p}webhook_id, ${p}event, ${p}event_key, ${p}payload, ${p}state, ${p}attempts, ${p}next_attempt_at, ${p}last_status, ${p}last_error, ${p}created, ${p}delivered_at`;
}

export function insertWebhook(row: Omit<WebhookRow, "seq">): Sql {
  return {
    text: `INSERT INTO webhooks (id, url, secret_sealed, events, plan_id, format, created) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${WEBHOOK_COLUMNS}`,
    values: [row.id, row.url, row.secret_sealed, row.events, row.plan_id, row.format, row.created],
  };
}

export function webhookById(id: string): Sql {
  return { text: `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id = $1`, values: [id] };
}

/** Webhooks in creation order, after the `afterSeq` one, at most `limit` of them (all without). */
export function webhooksPage(afterSeq: string | undefined, limit: number | undefined): Sql {
  return {
    text: `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE ($1::bigint IS NULL OR seq > $1::bigint) ORDER BY webhooks.seq LIMIT $2`,
    values: [afterSeq ?? null, limit ?? null],
  };
}

/** Deletes a webhook and (ON DELETE CASCADE) its deliveries; answers it when there was one. */
export function deleteWebhookById(id: string): Sql {
  return { text: "DELETE FROM webhooks WHERE id = $1 RETURNING id", values: [id] };
}

/**
 * One pending delivery of the event for each webhook that wants it: its events name the event,
 * and it is for every plan (plan_id null) or for the event's plan. A webhook that has the event
 * already (another server enqueued it) keeps the one it has.
 */
export function enqueueDeliveries(event: AlertEvent, eventKey: string, planId: string | null, payload: object): Sql {
  return {
    text: `INSERT INTO webhook_deliveries (id, webhook_id, event, event_key, payload, state, attempts, next_attempt_at, created)
       SELECT gen_random_uuid(), w.id, $1::text, $2::text, $3::jsonb, 'pending', 0, now(), now() FROM webhooks w
       WHERE $1::text = ANY(w.events) AND (w.plan_id IS NULL OR w.plan_id = $4::uuid)
       ON CONFLICT (webhook_id, event_key) DO NOTHING RETURNING id`,
    values: [event, eventKey, json(payload), planId],
  };
}

/** A webhook's deliveries, newest first, before the `beforeSeq` one, at most `limit` of them (all without). */
export function deliveriesPage(webhookId: string, beforeSeq: string | undefined, limit: number | undefined): Sql {
  return {
    text: `SELECT ${deliveryColumns()} FROM webhook_deliveries
       WHERE webhook_id = $1 AND ($2::bigint IS NULL OR seq < $2::bigint) ORDER BY webhook_deliveries.seq DESC LIMIT $3`,
    values: [webhookId, beforeSeq ?? null, limit ?? null],
  };
}

/**
 * Leases to `owner` up to `limit` deliveries that are due (pending, their time come) and held by
 * nobody alive, with what sending them needs of their webhooks. Timed by the database's clock;
 * SKIP LOCKED lets claimers pass each other, and the outer condition makes one of them the winner.
 */
export function claimDueDeliveries(owner: string, leaseMs: number, limit: number): Sql {
  const free = "d.state = 'pending' AND d.next_attempt_at <= now() AND (d.owner IS NULL OR d.lease_until < now())";
  return {
    text: `UPDATE webhook_deliveries d SET owner = $1, lease_until = now() + $2 * interval '1 millisecond'
       FROM webhooks w
       WHERE w.id = d.webhook_id AND ${free}
         AND d.id IN (SELECT d.id FROM webhook_deliveries d WHERE ${free} ORDER BY d.next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING ${deliveryColumns("d")}, w.url, w.secret_sealed, w.format`,
    values: [owner, leaseMs, limit],
  };
}

/**
 * Records an attempt of `owner`'s delivery and lets its lease go: delivered, pending again
 * (due in `retryInMs`) or failed for good. Nothing when `owner` no longer holds it.
 */
export function recordDeliveryAttempt(
  id: string,
  owner: string,
  outcome: { state: DeliveryState; status: number | null; error: string | null; retryInMs: number | null },
): Sql {
  return {
    text: `UPDATE webhook_deliveries SET attempts = attempts + 1, state = $3, last_status = $4, last_error = $5,
         next_attempt_at = CASE WHEN $3 = 'pending' THEN now() + $6 * interval '1 millisecond' END,
         delivered_at = CASE WHEN $3 = 'delivered' THEN now() END,
         owner = NULL, lease_until = NULL
       WHERE id = $1 AND owner = $2 AND state = 'pending' RETURNING ${deliveryColumns()}`,
    values: [id, owner, outcome.state, outcome.status, outcome.error, outcome.retryInMs ?? 0],
  };
}

/** Frees `owner`'s deliveries, or every one when `owner` is unset (a lone embedded server at start). */
export function releaseDeliveries(owner?: string): Sql {
  return {
    text: "UPDATE webhook_deliveries SET owner = NULL, lease_until = NULL WHERE owner IS NOT NULL AND ($1::text IS NULL OR owner = $1) RETURNING id",
    values: [owner ?? null],
  };
}
