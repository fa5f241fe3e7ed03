import type { ExecutionState } from "../model/executions.js";
import type { SessionState } from "../model/sessions.js";

/**
 * Which sessions a read selects, in the database. Lists come oldest first, `(created, id)`;
 * a page starts after the key of the last session of the page before.
 */
export interface SessionWhere {
  states: SessionState[];
  id?: string;
  ids?: string[];
  /** The provider configuration's name. */
  provider?: string;
  /** Only the sessions this principal owns, and the shared ones. */
  visibleTo?: string;
  createdSince?: Date;
  after?: SessionKey;
  limit?: number;
}

/** A session's place in the lists: `created` as the database writes it (microseconds kept), and its id. */
export interface SessionKey {
  created: string;
  id: string;
}

/**
 * Which executions a read selects, in the database (every condition given must hold). Lists
 * come in creation order, `seq`, as they always have; a page starts after a `seq`.
 */
export interface ExecutionWhere {
  id?: string;
  ids?: string[];
  sessionIds?: string[];
  /** The executions of the sessions this selects (a page of sessions: their executions). */
  sessions?: SessionWhere;
  tool?: string;
  workload?: string;
  /** The provider configuration's name, of the execution's session. */
  provider?: string;
  states?: ExecutionState[];
  /** Only the executions this principal owns, and those of shared sessions. */
  visibleTo?: string;
  createdSince?: Date;
  afterSeq?: string;
  limit?: number;
}

/** The numbered parameters (`$1`, `$2`...) of one statement, gathered as its conditions are written. */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** `SELECT columns FROM sessions` as `where` says, oldest first. */
export function sessionsSelect(where: SessionWhere, params: SqlParams, columns: string): string {
  const conditions = [`state = ANY(${params.add(where.states)})`];
  if (where.id !== undefined) conditions.push(`id = ${params.add(where.id)}::uuid`);
  if (where.ids) conditions.push(`id = ANY(${params.add(where.ids)}::uuid[])`);
  if (where.provider !== undefined) conditions.push(`provider_name = ${params.add(where.provider)}`);
  if (where.visibleTo !== undefined) conditions.push(`(owner = ${params.add(where.visibleTo)} OR shared)`);
  if (where.createdSince) conditions.push(`created >= ${params.add(where.createdSince)}`);
  if (where.after) conditions.push(`(created, id) > (${params.add(where.after.created)}::timestamptz, ${params.add(where.after.id)}::uuid)`);
  return `SELECT ${columns} FROM sessions WHERE ${conditions.join(" AND ")} ORDER BY created, id${limitClause(where.limit, params)}`;
}

/** The execution aliased `alias` is one the principal `$n` may read: its own, or one of a shared session. */
export function readableExecution(alias: string, principal: string): string {
  return `(${alias}.owner = ${principal} OR EXISTS (SELECT 1 FROM sessions s WHERE s.id = ${alias}.session_id AND s.shared))`;
}

/** The conditions on executions (aliased `e`) that `where` makes; none selects every execution. */
function executionConditions(where: ExecutionWhere, params: SqlParams): string[] {
  const conditions: string[] = [];
  if (where.id !== undefined) conditions.push(`e.id = ${params.add(where.id)}::uuid`);
  if (where.ids) conditions.push(`e.id = ANY(${params.add(where.ids)}::uuid[])`);
  if (where.sessionIds) conditions.push(`e.session_id = ANY(${params.add(where.sessionIds)}::uuid[])`);
  if (where.sessions) conditions.push(`e.session_id IN (${sessionsSelect(where.sessions, params, "id")})`);
  if (where.tool !== undefined) conditions.push(`e.tool_id = ${params.add(where.tool)}`);
  if (where.workload !== undefined) conditions.push(`e.workload_id = ${params.add(where.workload)}`);
  if (where.provider !== undefined) {
    conditions.push(`EXISTS (SELECT 1 FROM sessions s WHERE s.id = e.session_id AND s.provider_name = ${params.add(where.provider)})`);
  }
  if (where.states) conditions.push(`e.state = ANY(${params.add(where.states)})`);
  if (where.visibleTo !== undefined) conditions.push(readableExecution("e", params.add(where.visibleTo)));
  if (where.createdSince) conditions.push(`e.created >= ${params.add(where.createdSince)}`);
  if (where.afterSeq !== undefined) conditions.push(`e.seq > ${params.add(where.afterSeq)}::bigint`);
  return conditions;
}

/** `WHERE …` of `executionConditions`, its order and its limit: the executions a list or page holds. */
export function executionsClause(where: ExecutionWhere, params: SqlParams): string {
  const conditions = executionConditions(where, params);
  return `${conditions.length ? `WHERE ${conditions.join(" AND ")}` : ""} ORDER BY e.seq${limitClause(where.limit, params)}`;
}

function limitClause(limit: number | undefined, params: SqlParams): string {
  return limit === undefined ? "" : ` LIMIT ${params.add(limit)}`;
}
