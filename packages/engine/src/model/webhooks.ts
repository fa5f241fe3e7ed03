/** What a webhook is called for: a change of a series' level, or a scheduled plan run that failed. */
export type AlertEvent = "regression" | "improvement" | "schedule_failed";

export const ALERT_EVENTS: readonly AlertEvent[] = ["regression", "improvement", "schedule_failed"];

/** How a delivery's body is written: Benchwright's own JSON envelope, or a message Slack's incoming webhooks take. */
export type WebhookFormat = "json" | "slack";

export type DeliveryState = "pending" | "delivered" | "failed";

/** A row of `webhooks`; the signing secret only sealed (it is shown once, when the webhook is made). */
export interface WebhookRow {
  id: string;
  seq: string;
  url: string;
  secret_sealed: string;
  events: AlertEvent[];
  /** Null: every plan's events, and those outside plans. */
  plan_id: string | null;
  format: WebhookFormat;
  created: Date;
}

/** A row of `webhook_deliveries`: one event for one webhook, tried until delivered or given up. */
export interface DeliveryRow {
  id: string;
  seq: string;
  webhook_id: string;
  event: AlertEvent;
  /** The event's own key (`change:<id>`, `schedule_failed:<run id>`): a webhook gets each event once. */
  event_key: string;
  payload: Record<string, unknown>;
  state: DeliveryState;
  attempts: number;
  next_attempt_at: Date | null;
  last_status: number | null;
  last_error: string | null;
  created: Date;
  delivered_at: Date | null;
}

/** A delivery claimed by a deliverer, with what sending it needs of its webhook. */
export interface ClaimedDelivery extends DeliveryRow {
  url: string;
  secret_sealed: string;
  format: WebhookFormat;
}

/** How an attempt ended, as recorded: delivered, tried again at `retryInMs`, or given up. */
export interface AttemptOutcome {
  state: DeliveryState;
  status: number | null;
  error: string | null;
  /** When the next attempt is due, for a delivery still pending. */
  retryInMs: number | null;
}
