import { BenchwrightProblemError, type Execution, type Session } from "@benchwright/sdk";
import { api } from "./api.js";

/**
 * A session as the page can know it: its record; or, deleted, only its executions and (from
 * the server's 410) when it was deleted.
 */
export interface SessionSeen {
  session?: Session;
  executions: Execution[];
  /** When the deleted session was deleted, as its 410 says (absent from an older server's 404). */
  deleted?: string;
}

/** Whether reading a session failed because it is deleted: 410 `session_gone`. */
export function isSessionGone(error: unknown): error is BenchwrightProblemError {
  return error instanceof BenchwrightProblemError && error.status === 410;
}

/**
 * The session and its executions. A deleted session answers 410 (`session_gone`, with when it
 * was deleted): its record is looked up among the deleted sessions' (`?state=deleted`), which
 * keep it, and its executions listed by its id, which outlive it.
 * An older server answered 404 for it: with executions, the session is shown as deleted; with
 * none, it is unknown (the 404 is thrown).
 */
export async function findSession(id: string, signal: AbortSignal): Promise<SessionSeen> {
  try {
    const session = await api().getSession(id, { signal });
    return { session, executions: session.executions };
  } catch (error) {
    const gone = isSessionGone(error);
    if (!gone && !(error instanceof BenchwrightProblemError && error.status === 404)) throw error;
    const [executions, record] = await Promise.all([api().listExecutions({ sessionId: id, signal }), gone ? deletedRecord(id, signal) : undefined]);
    if (gone) return { session: record, executions, deleted: error.problem.deleted };
    if (!executions.length) throw error;
    return { executions };
  }
}

/** A deleted session's record, from the list of deleted sessions; none when that list no longer holds it. */
async function deletedRecord(id: string, signal: AbortSignal): Promise<Session | undefined> {
  for await (const session of api().sessions({ state: ["deleted"], signal })) if (session.id === id) return session;
  return undefined;
}
