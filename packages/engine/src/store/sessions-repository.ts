import type { NewSessionRow, SessionRow, SessionState, SessionSummary } from "../model/sessions.js";
import type { Db } from "./db.js";
import type { EventAppender } from "./event-appender.js";
import type { SessionKey, SessionWhere } from "./list-where.js";
import { insertSession, moveSession, sessionById, sessionsById, sessionsIn, sessionStateOf, sessionSummaries } from "./sql/sessions-sql.js";
import { run } from "./sql/sql.js";

/** The sessions: their rows, their states, and their views. */
export class SessionsRepository {
  constructor(
    private readonly db: Db,
    private readonly events: EventAppender,
  ) {}

  async insert(row: NewSessionRow): Promise<void> {
    await this.db.transaction(async (tx) => {
      await run(tx, insertSession(row));
      await this.events.appendAll(
        [
          {
            type: "session.created",
            session_id: row.id,
            execution_id: null,
            data: { provider: row.provider_name, service_type: row.service_type },
          },
        ],
        tx,
      );
    });
  }

  async get(id: string): Promise<SessionRow | undefined> {
    return (await run<SessionRow>(this.db, sessionById(id)))[0];
  }

  /** These sessions, in any state; those that do not exist are left out. */
  async byIds(ids: string[]): Promise<SessionRow[]> {
    return ids.length ? run<SessionRow>(this.db, sessionsById(ids)) : [];
  }

  async list(states: SessionState[]): Promise<SessionRow[]> {
    return run<SessionRow>(this.db, sessionsIn(states));
  }

  /** Moves a session between states; false when it was not in one of `from`. */
  async setState(id: string, from: SessionState[], to: SessionState): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const rows = await run(tx, moveSession(id, from, to));
      if (rows.length !== 1) return false;
      await this.events.appendAll([{ type: "session.state", session_id: id, execution_id: null, data: { state: to } }], tx);
      return true;
    });
  }

  /** Whether the session is active (not being deleted, nor deleted). */
  async active(id: string): Promise<boolean> {
    const [row] = await run<{ state: SessionState }>(this.db, sessionStateOf(id));
    return row?.state === "active";
  }

  /** The sessions `where` selects (filters and page in the query), oldest first, as their views show them. */
  async find(where: SessionWhere): Promise<Array<SessionSummary & { key: SessionKey }>> {
    const rows = await run<SessionSummary & { created_key: string }>(this.db, sessionSummaries(where));
    return rows.map(({ created_key, ...row }) => ({ ...row, key: { created: created_key, id: row.id } }));
  }
}
