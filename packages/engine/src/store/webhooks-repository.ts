import type { AlertEvent, AttemptOutcome, ClaimedDelivery, DeliveryRow, WebhookRow } from "../model/webhooks.js";
import type { Db } from "./db.js";
import {
  claimDueDeliveries,
  deleteWebhookById,
  deliveriesPage,
  enqueueDeliveries,
  insertWebhook,
  recordDeliveryAttempt,
  releaseDeliveries,
  webhookById,
  webhooksPage,
} from "./sql/webhooks-sql.js";
import { run } from "./sql/sql.js";

/**
 * The webhooks and their deliveries. A delivery is sent by the one deliverer holding its lease
 * (`owner`, `lease_until`, timed by the database's clock as the steps' are); an attempt is
 * recorded only by its holder.
 */
export class WebhooksRepository {
  constructor(private readonly db: Db) {}

  async insert(row: Omit<WebhookRow, "seq">): Promise<WebhookRow> {
    const [stored] = await run<WebhookRow>(this.db, insertWebhook(row));
    return stored!;
  }

  async get(id: string): Promise<WebhookRow | undefined> {
    return (await run<WebhookRow>(this.db, webhookById(id)))[0];
  }

  /** Oldest first, after the `afterSeq` one, at most `limit` (all without). */
  page(afterSeq: string | undefined, limit: number | undefined): Promise<WebhookRow[]> {
    return run<WebhookRow>(this.db, webhooksPage(afterSeq, limit));
  }

  /** Whether there was such a webhook; its deliveries go with it. */
  async delete(id: string): Promise<boolean> {
    return (await run(this.db, deleteWebhookById(id))).length > 0;
  }

  /** A pending delivery of the event for each webhook that wants it and has not got it yet; how many were made. */
  async enqueue(event: AlertEvent, eventKey: string, planId: string | null, payload: object): Promise<number> {
    return (await run(this.db, enqueueDeliveries(event, eventKey, planId, payload))).length;
  }

  /** Newest first, before the `beforeSeq` one, at most `limit` (all without). */
  deliveries(webhookId: string, beforeSeq: string | undefined, limit: number | undefined): Promise<DeliveryRow[]> {
    return run<DeliveryRow>(this.db, deliveriesPage(webhookId, beforeSeq, limit));
  }

  /** Leases to `owner` up to `limit` due deliveries nobody holds. */
  claimDue(owner: string, leaseMs: number, limit: number): Promise<ClaimedDelivery[]> {
    return run<ClaimedDelivery>(this.db, claimDueDeliveries(owner, leaseMs, limit));
  }

  /** The delivery after its attempt is recorded; null when `owner` had lost it (someone else sends it). */
  async recordAttempt(id: string, owner: string, outcome: AttemptOutcome): Promise<DeliveryRow | null> {
    return (await run<DeliveryRow>(this.db, recordDeliveryAttempt(id, owner, outcome)))[0] ?? null;
  }

  /** Lets `owner`'s deliveries go (every one's when unset), for others to take at once. */
  async release(owner?: string): Promise<number> {
    return (await run(this.db, releaseDeliveries(owner))).length;
  }
}
