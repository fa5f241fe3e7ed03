import type { Db } from "./db.js";

/** Whose a session (and so its executions) is, and whether every principal may read it. */
export interface Ownership {
  owner: string;
  shared: boolean;
}

/**
 * The owners of sessions and executions, written with them (an execution's is its session's,
 * whoever created it: an admin's execution in an operator's session is the operator's to read
 * and delete with the session).
 */
export class OwnersRepository {
  constructor(private readonly db: Db) {}

  async ofSession(id: string): Promise<Ownership | undefined> {
    return (await this.db.query<Ownership>("SELECT owner, shared FROM sessions WHERE id = $1", [id]))[0];
  }

  /** The execution's owner, and whether its session is shared. */
  async ofExecution(id: string): Promise<Ownership | undefined> {
    return (await this.db.query<Ownership>("SELECT e.owner, s.shared FROM executions e JOIN sessions s ON s.id = e.session_id WHERE e.id = $1", [id]))[0];
  }

  /** Shares an active session or stops sharing it; false when it is not active (being deleted, deleted, or absent). */
  async share(id: string, shared: boolean): Promise<boolean> {
    return (await this.db.query("UPDATE sessions SET shared = $2 WHERE id = $1 AND state = 'active' RETURNING id", [id, shared])).length === 1;
  }
}
