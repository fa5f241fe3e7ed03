import type { AlertEvent, WebhookFormat } from "../model/webhooks.js";
import { formatTimestamp } from "../time.js";

/**
 * What a change event's payload holds (`{change}`: the contract's Change), as far as a message
 * reads it. Every field is optional here: a payload is stored when the event happens and read
 * when it is sent, maybe by a newer server.
 */
interface ChangeLike {
  id?: string;
  series_id?: string;
  series?: {
    tool?: string;
    workload?: string;
    params?: Record<string, unknown>;
    metric?: string;
    tags?: Record<string, unknown>;
    provider?: string;
    service_type?: string;
    unit?: string;
    better?: string;
  };
  direction?: string;
  size?: number;
  size_ci_low?: number | null;
  size_ci_high?: number | null;
  p_value?: number;
  before?: { mean?: number; n?: number };
  after?: { mean?: number; n?: number };
  execution_id?: string;
  facts_changed?: Array<{ fact?: string; before?: string[]; after?: string[] }>;
}

/** A failed scheduled run's payload (`{plan_id, run, failed_cells}`), as far as a message reads it. */
interface ScheduleFailedLike {
  plan_id?: string;
  run?: { id?: string; state?: string; scheduled_for?: string | null; progress?: { total?: number; failed?: number } };
  failed_cells?: Array<{ target?: string; tool?: string; workload?: string; error?: string | null }>;
}

/** What a delivery sends, before it is written in its webhook's format. */
export interface AlertMessage {
  event: AlertEvent;
  eventKey: string;
  created: Date;
  payload: Record<string, unknown>;
}

/** The body a delivery POSTs, as its webhook's format writes it. */
export function webhookBody(format: WebhookFormat, message: AlertMessage): string {
  return JSON.stringify(format === "slack" ? slackBody(message) : jsonBody(message));
}

/** Benchwright's own envelope: the event key is the id a receiver dedupes on (also sent as Idempotency-Key). */
export function jsonBody(message: AlertMessage): { id: string; event: AlertEvent; created: string; data: Record<string, unknown> } {
  return { id: message.eventKey, event: message.event, created: formatTimestamp(message.created), data: message.payload };
}

type SlackBlock = { type: "section"; text: { type: "mrkdwn"; text: string } } | { type: "context"; elements: Array<{ type: "mrkdwn"; text: string }> };

/**
 * A message Slack's incoming webhooks take: `text` (the notification's one line, and what
 * clients without blocks show) and blocks with the detail in mrkdwn.
 */
export function slackBody(message: AlertMessage): { text: string; blocks: SlackBlock[] } {
  const { text, lines, context } = message.event === "schedule_failed" ? scheduleFailedParts(message.payload) : changeParts(message.event, message.payload);
  return {
    text,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: lines.join("\n") } },
      { type: "context", elements: [{ type: "mrkdwn", text: [...context, `event \`${slackEscape(message.eventKey)}\``].join(" · ") }] },
    ],
  };
}

interface Parts {
  /** The one-line summary, plain text. */
  text: string;
  /** The message's lines, mrkdwn. */
  lines: string[];
  /** Ids and the like, mrkdwn. */
  context: string[];
}

function changeParts(event: AlertEvent, payload: Record<string, unknown>): Parts {
  // `{change}` as the events feed sends it; a bare change is read too.
  const change = ((payload.change ?? payload) as ChangeLike) ?? {};
  const s = change.series ?? {};
  const kind = event === "improvement" ? "Improvement" : "Regression";
  const metric = s.metric ?? "a metric";
  const what = [s.tool, s.workload].filter(Boolean).join("/") || "a series";
  const target = [s.provider, s.service_type].filter(Boolean).join("/");
  const size = sizeText(change);
  const text = `${kind}: ${metric} of ${what}${target ? ` on ${target}` : ""}${size ? ` ${size}` : ""}`;
  const lines = [`*${kind}* in \`${slackEscape(metric)}\`${s.better ? ` (${slackEscape(s.better)} is better)` : ""}`];
  const params = Object.entries(s.params ?? {}).map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`);
  const tags = Object.entries(s.tags ?? {}).map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`);
  lines.push(
    `*Series:* ${slackEscape(what)}${params.length ? ` (${slackEscape(params.join(", "))})` : ""}${target ? ` on ${slackEscape(target)}` : ""}${tags.length ? `, tags ${slackEscape(tags.join(", "))}` : ""}`,
  );
  if (size) lines.push(`*Size:* ${slackEscape(size)}${levelsText(change, s.unit)}`);
  const facts = (change.facts_changed ?? []).map((f) => `${f.fact ?? "?"}: ${listText(f.before)} → ${listText(f.after)}`);
  lines.push(facts.length ? `*Facts that changed:* ${slackEscape(facts.join("; "))}` : "*Facts that changed:* none recorded");
  const context = [change.id && `change \`${slackEscape(change.id)}\``, change.execution_id && `execution \`${slackEscape(change.execution_id)}\``].filter(
    (c): c is string => Boolean(c),
  );
  return { text, lines, context };
}

function scheduleFailedParts(payload: Record<string, unknown>): Parts {
  const { plan_id: planId, run = {}, failed_cells: failed = [] } = payload as ScheduleFailedLike;
  const cells = run.progress?.total ? ` (${run.progress.failed ?? failed.length} of ${run.progress.total} cells failed)` : "";
  const text = `Scheduled run ${run.id ?? "?"} of plan ${planId ?? "?"} failed${cells}`;
  const lines = [
    `*Scheduled run failed*${slackEscape(cells)}`,
    `*Plan:* \`${slackEscape(planId ?? "?")}\``,
    `*Run:* \`${slackEscape(run.id ?? "?")}\` (${slackEscape(run.state ?? "failed")})`,
  ];
  if (run.scheduled_for) lines.push(`*Scheduled for:* ${slackEscape(run.scheduled_for)} UTC`);
  for (const c of failed.slice(0, 5)) {
    lines.push(
      `• ${slackEscape([c.target, [c.tool, c.workload].filter(Boolean).join("/")].filter(Boolean).join(" "))}${c.error ? `: ${slackEscape(oneLine(c.error))}` : ""}`,
    );
  }
  if (failed.length > 5) lines.push(`…and ${failed.length - 5} more`);
  return { text, lines, context: [] };
}

/** `+12.3% (CI +8.1% to +16.0%)`, or empty without a size. */
function sizeText(change: ChangeLike): string {
  if (typeof change.size !== "number" || !Number.isFinite(change.size)) return "";
  const low = change.size_ci_low;
  const high = change.size_ci_high;
  const ci = typeof low === "number" && typeof high === "number" ? ` (CI ${percent(low)} to ${percent(high)})` : "";
  return `${percent(change.size)}${ci}`;
}

/** `, 1200 → 1052 ops/s`, or empty without both means. */
function levelsText(change: ChangeLike, unit: string | undefined): string {
  const before = change.before?.mean;
  const after = change.after?.mean;
  if (typeof before !== "number" || typeof after !== "number") return "";
  return slackEscape(`, ${number(before)} → ${number(after)}${unit ? ` ${unit}` : ""}`);
}

function percent(fraction: number): string {
  return `${fraction >= 0 ? "+" : ""}${(fraction * 100).toFixed(1)}%`;
}

function number(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toPrecision(4);
}

function listText(values: string[] | undefined): string {
  return values?.length ? values.join(", ") : "(none)";
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/** Slack's mrkdwn takes &, < and > as markup: escaped as its documentation says. */
function slackEscape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
