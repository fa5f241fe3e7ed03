import type { CallOptions, ClientContext, RequestOptions } from "../client-context.js";
import { listQuery, type FollowOptions, type Page, type PageOptions, type SessionFilters } from "../lists.js";
import type { Session, SessionCreate, SessionUpdate } from "../types.js";

/** Options of `listSessions`: its filters (without them, every session that is not deleted). */
export type ListSessionsOptions = CallOptions & SessionFilters;

export interface SessionsMethods {
  createSession(body: SessionCreate, options?: CallOptions): Promise<Session>;
  /** The sessions that match the filters (every one that is not deleted without a `state`), oldest first. */
  listSessions(options?: ListSessionsOptions): Promise<Session[]>;
  /** One page of them: at most `limit`, from `cursor` on, and the `nextCursor` when more match. */
  listSessionsPage(options?: ListSessionsOptions & PageOptions): Promise<Page<Session>>;
  /**
   * The sessions that match the filters, page after page (`pageSize` at a time) as the loop goes.
   *
   * @example
   * for await (const s of bw.sessions({ provider: "aws" })) console.log(s.id, s.executions.length);
   */
  sessions(options?: ListSessionsOptions & FollowOptions): AsyncIterable<Session>;
  /** A session, deleted or not (`state: "deleted"` and its `deleted` time): its record and executions outlive it. */
  getSession(sessionId: string, options?: CallOptions): Promise<Session>;
  /** Shares the session (and its executions) with every principal for reading, or stops sharing it; only its owner or an admin may. */
  updateSession(sessionId: string, body: SessionUpdate, options?: CallOptions): Promise<Session>;
  /** Destroys every provider resource the session created; the executions stay readable. */
  deleteSession(sessionId: string, options?: RequestOptions): Promise<void>;
}

export function sessionsMethods({ raw, unwrap, init, listInit, fieldsHeader, readPage, itemsOf, follow }: ClientContext): SessionsMethods {
  const sessionsPage = (o?: ListSessionsOptions & PageOptions) =>
    readPage<Session>(raw.GET("/sessions/", { params: { header: fieldsHeader(o), query: listQuery(o) }, ...listInit(o) }));
  return {
    createSession: (body, o) => unwrap(raw.POST("/sessions/", { body, params: { header: fieldsHeader(o) }, ...init(o) })),
    listSessions: (o) => itemsOf(sessionsPage(o)),
    listSessionsPage: sessionsPage,
    sessions: (o) => follow(o, sessionsPage),
    getSession: (sessionId, o) =>
      unwrap(
        raw.GET("/sessions/{session_id}", {
          params: { path: { session_id: sessionId }, header: fieldsHeader(o) },
          ...init(o),
        }),
      ),
    updateSession: (sessionId, body, o) =>
      unwrap(
        raw.PATCH("/sessions/{session_id}", {
          body,
          params: { path: { session_id: sessionId }, header: fieldsHeader(o) },
          ...init(o),
        }),
      ),
    deleteSession: async (sessionId, o) => {
      await unwrap(raw.DELETE("/sessions/{session_id}", { params: { path: { session_id: sessionId } }, ...init(o) }));
    },
  };
}
