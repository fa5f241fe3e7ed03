import { randomUUID } from "node:crypto";
import type { Webhook, WebhookCreate, WebhookDelivery } from "@benchwright/contract";
import { BenchwrightError } from "../errors.js";
import { deliveryCursor, deliverySeqOf, webhookCursor, webhookSeqOf } from "../lists/cursor.js";
import { pageOf, type Page, type SeqPageQuery, seqPageOf } from "../lists/list-query.js";
import { ALERT_EVENTS, type AlertEvent, type DeliveryRow, type WebhookRow } from "../model/webhooks.js";
import type { OutboundPolicy } from "../net/outbound-guard.js";
import type { SecretBox } from "../secrets/secret-box.js";
import type { Store } from "../store/store.js";
import { formatTimestamp } from "../time.js";
import { checkWebhookUrl } from "./webhook-url.js";
import { newWebhookSecret } from "./webhook-signature.js";

/** A webhook as the API shows it; `secret` only in the answer to its creation. */
export type WebhookView = Webhook;
/** A delivery as the API shows it: what was sent when, and how its last attempt went. */
export type DeliveryView = WebhookDelivery;

/** On a regression and a failed scheduled run, unless the webhook says otherwise: improvements are asked for. */
const DEFAULT_EVENTS: readonly AlertEvent[] = ["regression", "schedule_failed"];

export interface WebhooksOptions {
  store: Store;
  /** Seals each webhook's signing secret: it must be read back to sign. */
  secrets: SecretBox;
  /** Which hosts a webhook's URL may name (BENCHWRIGHT_ALLOW_PRIVATE_WEBHOOKS). */
  policy: OutboundPolicy;
}

/** The webhooks: made (their URL checked, their secret made and shown once), listed, read, deleted, and their deliveries read. */
export class Webhooks {
  constructor(private readonly options: WebhooksOptions) {}

  async create(body: WebhookCreate): Promise<WebhookView> {
    const { store, secrets, policy } = this.options;
    const events = eventsOf(body.events);
    const format = body.format ?? "json";
    if (format !== "json" && format !== "slack") throw invalid("/body/format", "must be json or slack");
    if (body.plan_id !== undefined && !(await store.plans.get(body.plan_id))) throw invalid("/body/plan_id", `no plan ${body.plan_id}`);
    const url = await checkWebhookUrl(body.url, policy);
    const secret = newWebhookSecret();
    const row = await store.webhooks
      .insert({ id: randomUUID(), url, secret_sealed: secrets.seal(secret), events, plan_id: body.plan_id ?? null, format, created: new Date() })
      .catch((e: { code?: string }) => {
        // The plan was deleted since it was read (foreign_key_violation).
        throw e?.code === "23503" ? invalid("/body/plan_id", `no plan ${body.plan_id}`) : e;
      });
    return { ...webhookView(row), secret };
  }

  /** Oldest first (a page of them with the query's `limit`). */
  async list(query: SeqPageQuery = {}): Promise<Page<WebhookView>> {
    const { afterSeq, limit } = seqPageOf(query, webhookSeqOf);
    const page = pageOf(await this.options.store.webhooks.page(afterSeq, limit), query.limit, (last) => webhookCursor(last.seq));
    return { items: page.items.map(webhookView), next: page.next };
  }

  async get(id: string): Promise<WebhookView> {
    return webhookView(await this.row(id));
  }

  /** Forgets the webhook and its deliveries: what is pending is not sent. */
  async delete(id: string): Promise<void> {
    if (!(await this.options.store.webhooks.delete(id))) throw new BenchwrightError("not_found", `No webhook ${id}`);
  }

  /** The webhook's deliveries, newest first (a page of them with the query's `limit`). */
  async deliveries(id: string, query: SeqPageQuery = {}): Promise<Page<DeliveryView>> {
    // Newest first: the cursor is where the page before ended, so the page is before it.
    const { afterSeq: beforeSeq, limit } = seqPageOf(query, deliverySeqOf);
    await this.row(id);
    const page = pageOf(await this.options.store.webhooks.deliveries(id, beforeSeq, limit), query.limit, (last) => deliveryCursor(last.seq));
    return { items: page.items.map(deliveryView), next: page.next };
  }

  private async row(id: string): Promise<WebhookRow> {
    const row = await this.options.store.webhooks.get(id);
    if (!row) throw new BenchwrightError("not_found", `No webhook ${id}`);
    return row;
  }
}

function eventsOf(events: AlertEvent[] | undefined): AlertEvent[] {
  if (events === undefined) return [...DEFAULT_EVENTS];
  if (!Array.isArray(events) || events.length === 0) throw invalid("/body/events", `must name at least one of ${ALERT_EVENTS.join(", ")}`);
  const unknown = events.filter((e) => !ALERT_EVENTS.includes(e));
  if (unknown.length) throw invalid("/body/events", `${unknown.join(", ")}: not an event; the events are ${ALERT_EVENTS.join(", ")}`);
  return [...new Set(events)];
}

function invalid(path: string, message: string): BenchwrightError {
  return new BenchwrightError("validation_failed", `${path.split("/").pop()} ${message}`, { errors: [{ path, message }] });
}

function webhookView(row: WebhookRow): WebhookView {
  return { id: row.id, url: row.url, events: row.events, plan_id: row.plan_id, format: row.format, created: formatTimestamp(new Date(row.created)) };
}

function deliveryView(row: DeliveryRow): DeliveryView {
  const time = (t: Date | null) => (t === null ? null : formatTimestamp(new Date(t)));
  return {
    id: row.id,
    webhook_id: row.webhook_id,
    event: row.event,
    event_key: row.event_key,
    state: row.state,
    attempts: row.attempts,
    last_status: row.last_status,
    last_error: row.last_error,
    next_attempt_at: time(row.next_attempt_at),
    created: formatTimestamp(new Date(row.created)),
    delivered_at: time(row.delivered_at),
  };
}
