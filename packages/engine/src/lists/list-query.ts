import type { operations } from "@benchwright/contract";
import { BenchwrightError } from "../errors.js";
import type { ExecutionWhere, SessionWhere } from "../store/list-where.js";
import type { AuditWhere } from "../model/audit.js";
import type { SessionState } from "../model/sessions.js";
import { auditSeqOf, executionSeqOf, planRunSeqOf, planSeqOf, sessionKeyOf } from "./cursor.js";

type QueryOf<Operation extends keyof operations> = NonNullable<operations[Operation]["parameters"]["query"]>;

/** The filters and page of `GET /sessions/`, as the contract names them. */
export type SessionListQuery = QueryOf<"listSessions"> & Visibility;
/** The filters and page of `GET /executions/` (and, without `session_id` and `provider`, of a session's executions). */
export type ExecutionListQuery = QueryOf<"listExecutions"> & Visibility;

/** A list as a principal who is not an admin sees it: its own records and the shared ones (unset: all). */
export interface Visibility {
  visible_to?: string;
}
/** The filters and page of `GET /admin/audit`. */
export type AuditListQuery = QueryOf<"listAuditEntries">;
/** The page of `GET /plans/`. */
export type PlanListQuery = QueryOf<"listPlans">;
/** The filters of the metrics export (its `format` is the server's business). */
export type MetricsExportQuery = Omit<QueryOf<"exportMetrics">, "format"> & Visibility;

/** One page of a list: its records, and the cursor of the next page when more match. */
export interface Page<T> {
  items: T[];
  next?: string;
}

/** The states of the sessions a list holds unless its `state` names others: the live ones, as the Benchmarking Suite listed them. */
const LISTED_SESSION_STATES: readonly SessionState[] = ["active", "deleting"];

/** The largest page; the contract says the same. */
const MAX_LIMIT = 1000;

/** What a sessions list selects in the database: one more than `limit`, to know whether a next page exists. */
export function sessionWhereOf(query: SessionListQuery): SessionWhere {
  return {
    states: query.state ? [...new Set(query.state)] : [...LISTED_SESSION_STATES],
    provider: query.provider,
    visibleTo: query.visible_to,
    createdSince: createdSinceOf(query.created_since),
    after: query.cursor === undefined ? undefined : sessionKeyOf(query.cursor),
    limit: pageSizeOf(query.limit),
  };
}

/**
 * What an executions list (or the export: no page) selects in the database. `toolId` turns a
 * name a tool answers to (`testing`) into the id executions record (`idle`).
 */
export function executionWhereOf(query: ExecutionListQuery, toolId: (name: string) => string): ExecutionWhere {
  return {
    sessionIds: query.session_id === undefined ? undefined : [query.session_id],
    tool: query.tool === undefined ? undefined : toolId(query.tool),
    workload: query.workload,
    provider: query.provider,
    states: query.state,
    visibleTo: query.visible_to,
    createdSince: createdSinceOf(query.created_since),
    afterSeq: query.cursor === undefined ? undefined : executionSeqOf(query.cursor),
    limit: pageSizeOf(query.limit),
  };
}

/** What an audit list selects in the database, newest first: one more than `limit`, to know whether a next page exists. */
export function auditWhereOf(query: AuditListQuery): AuditWhere {
  return {
    principal: query.principal,
    operation: query.operation,
    since: instantOf(query.since, "since"),
    until: instantOf(query.until, "until"),
    outcome: query.outcome,
    beforeSeq: query.cursor === undefined ? undefined : auditSeqOf(query.cursor),
    limit: pageSizeOf(query.limit),
  };
}

/** Where a page of plans starts, and how many rows it reads (one more than `limit`). */
export function planPageOf(query: PlanListQuery): { afterSeq?: string; limit?: number } {
  return { afterSeq: query.cursor === undefined ? undefined : planSeqOf(query.cursor), limit: pageSizeOf(query.limit) };
}

export function planRunPageOf(query: PlanListQuery): { afterSeq?: string; limit?: number } {
  return { afterSeq: query.cursor === undefined ? undefined : planRunSeqOf(query.cursor), limit: pageSizeOf(query.limit) };
}

/** The page of a list keyed by `seq`: the webhooks', a webhook's deliveries, the series'. */
export interface SeqPageQuery {
  limit?: number;
  cursor?: string;
}

/** Where a page of a list keyed by `seq` starts (its cursor read by `seqOf`), and how many rows it reads (one more than `limit`). */
export function seqPageOf<S>(query: SeqPageQuery, seqOf: (cursor: string) => S): { afterSeq?: S; limit?: number } {
  return { afterSeq: query.cursor === undefined ? undefined : seqOf(query.cursor), limit: pageSizeOf(query.limit) };
}

/** The page a list answers, from rows read with `where.limit` (one more than asked for). */
export function pageOf<R>(rows: R[], limit: number | undefined, cursorOf: (last: R) => string): Page<R> {
  if (limit === undefined || rows.length <= limit) return { items: rows };
  const items = rows.slice(0, limit);
  return { items, next: cursorOf(items[items.length - 1]) };
}

function pageSizeOf(limit: number | undefined): number | undefined {
  if (limit === undefined) return undefined;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    const message = `must be an integer from 1 to ${MAX_LIMIT}`;
    throw new BenchwrightError("validation_failed", `limit ${message}`, { errors: [{ path: "/query/limit", message }] });
  }
  return limit + 1;
}

const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/**
 * `created_since` as a time: an ISO 8601 date (its start, UTC), a date and time in UTC (`Z`, or
 * none, as the records write their times) or with its offset. Anything else is a 400 that says
 * what is allowed.
 */
function createdSinceOf(value: string | undefined): Date | undefined {
  return instantOf(value, "created_since");
}

/** A time parameter (`name`) as a time, read as `created_since` is. */
function instantOf(value: string | undefined, name: string): Date | undefined {
  if (value === undefined) return undefined;
  const m = ISO_8601.exec(value.trim());
  const [year, month, day, hour, minute, second] = (m?.slice(1, 7) ?? []).map((x) => Number(x ?? 0));
  const millis = Number((m?.[7] ?? "").padEnd(3, "0").slice(0, 3));
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  // Date.UTC rolls 2026-02-30 over into March: a field out of its range shows as a different date.
  const exact = m && new Date(utc).toISOString().slice(0, 19) === `${m[1]}-${m[2]}-${m[3]}T${pad(hour)}:${pad(minute)}:${pad(second)}`;
  const offset = offsetMinutes(m?.[8]);
  if (!m || !exact || offset === undefined) {
    const message =
      "must be an ISO 8601 date or time: 2026-11-21 (its start, UTC), 2026-11-21T10:15:00Z or 2026-11-21 10:15:00 (UTC), " +
      "or 2026-11-21T11:15:00+01:00 (with its offset; in a URL, + is %2B)";
    throw new BenchwrightError("validation_failed", `${name} ${message}`, { errors: [{ path: `/query/${name}`, message }] });
  }
  return new Date(utc - offset * 60_000);
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

/** Minutes east of UTC: `+01:00` is 60, `Z` or none 0; undefined for an offset no clock has (`+24:00`, `+01:60`). */
function offsetMinutes(zone: string | undefined): number | undefined {
  if (!zone || zone.toUpperCase() === "Z") return 0;
  const digits = zone.slice(1).replace(":", "");
  const [hours, minutes] = [Number(digits.slice(0, 2)), Number(digits.slice(2) || 0)];
  if (hours > 23 || minutes > 59) return undefined;
  return (zone[0] === "-" ? -1 : 1) * (hours * 60 + minutes);
}
