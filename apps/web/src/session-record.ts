import { BenchwrightProblemError, type Execution, type Session } from "@benchwright/sdk";
import { api } from "./api.js";

/** A session as the page can know it: its record, or (deleted, on a server that forgot it) only its executions. */
export interface SessionSeen {
  session?: Session;
  executions: Execution[];
}

/**
 * The session and its executions. A deleted session answers with its record (`state: deleted`);
 * a server that answers 404 for it still lists its executions by its id: with some, the
 * session is shown as deleted; with none, it is unknown (the 404 is thrown).
 */
export async function findSession(id: string, signal: AbortSignal): Promise<SessionSeen> {
  try {
    const session = await api().getSession(id, { signal });
    return { session, executions: session.executions };
  } catch (error) {
    if (!(error instanceof BenchwrightProblemError && error.status === 404)) throw error;
    const executions = await api().listExecutions({ sessionId: id, signal });
    if (!executions.length) throw error;
    return { executions };
  }
}
