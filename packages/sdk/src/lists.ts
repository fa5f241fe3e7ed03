import { BenchwrightProblemError } from "./errors.js";
import type { ExecutionState, SessionState } from "./types.js";

/** The filters of `listSessions`, `listSessionsPage` and `sessions` (every one given must hold). */
export interface SessionFilters {
  /** Only the sessions bound to this provider configuration (its name, a session's `provider.id`). */
  provider?: string;
  /**
   * Only the sessions in one of these states; the live ones (`active`, `deleting`) when unset.
   * `["deleted"]` lists the deleted sessions, whose records (and executions) stay readable.
   */
  state?: SessionState[];
  /** Only those created at or after this time: a Date, or ISO 8601 text (`2026-11-21`, `2026-11-21T10:15:00Z`). */
  createdSince?: Date | string;
}

/** The filters of a session's executions (`listSessionExecutions`, `listSessionExecutionsPage`). */
export interface SessionExecutionFilters {
  /** Only the executions of this tool (its id, or a name it answers to). */
  tool?: string;
  workload?: string;
  /** Only the executions in one of these states. */
  state?: ExecutionState[];
  /** Only those created at or after this time: a Date, or ISO 8601 text. */
  createdSince?: Date | string;
}

/** The filters of every execution (`listExecutions`, `listExecutionsPage`, `executions`, the metrics export). */
export interface ExecutionFilters extends SessionExecutionFilters {
  /** Only the executions of this session (deleted or not). */
  sessionId?: string;
  /** Only the executions of the sessions bound to this provider configuration. */
  provider?: string;
}

/** Which page: at most `limit` records (1 to 1000), from `cursor` (a page's `nextCursor`) on. */
export interface PageOptions {
  limit?: number;
  cursor?: string;
}

/** Options of the iterators that follow pages (`sessions`, `executions`). */
export interface FollowOptions {
  /** How many records each request asks for; 100 by default. */
  pageSize?: number;
}

/** One page of a list, and the cursor of the next one when more match (the server's `X-Next-Cursor`). */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/** The filters and page as the contract's query parameters (`state` of whichever list). */
export function listQuery<State extends string>(options: Omit<ExecutionFilters, "state"> & PageOptions & { state?: State[] } = {}) {
  const { createdSince } = options;
  return {
    session_id: options.sessionId,
    tool: options.tool,
    workload: options.workload,
    provider: options.provider,
    state: options.state,
    created_since: createdSince instanceof Date ? createdSince.toISOString() : createdSince,
    ...pageQuery(options),
  };
}

/** A page's place as query parameters: after a list's filters, or alone for the lists that have none (a series' points and changes). */
export function pageQuery(options: PageOptions = {}) {
  return { limit: options.limit, cursor: options.cursor };
}

/** `state=completed,run_failed`, as the contract spells a list of states. */
export const LIST_QUERY_SERIALIZER = { array: { style: "form", explode: false } } as const;

/** A page from its answer: the items, and the next cursor from `X-Next-Cursor`. */
export async function readPage<T>(pending: Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<Page<T>> {
  const { data, error, response } = await pending;
  if (!response.ok) throw BenchwrightProblemError.from(error, response);
  const next = response.headers.get("X-Next-Cursor");
  return next ? { items: data as T[], nextCursor: next } : { items: data as T[] };
}

/** Every record of a list, page after page, asking for the next page only once the loop has taken the last one. */
export async function* followPages<T>(pageAt: (cursor: string | undefined) => Promise<Page<T>>): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  do {
    const page = await pageAt(cursor);
    yield* page.items;
    cursor = page.nextCursor;
  } while (cursor !== undefined);
}
