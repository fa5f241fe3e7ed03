import type { Db } from "./db.js";

/** Whose a session (and so its executions) is, and whether every principal may read it. */
export interface Ownership {
  owner: string;
  shared: boolean;
}

/**
 * The owners of sessions and executions. An execution belongs to whoever created it, in a
 * session that principal may act on; its visibility follows its session's.
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

  async setSession(id: string, owner: string, shared: boolean): Promise<void> {
    await this.db.query("UPDATE sessions SET owner = $2, shared = $3 WHERE id = $1", [id, owner, shared]);
  }

  async setExecution(id: string, owner: string): Promise<void> {
    await this.db.query("UPDATE executions SET owner = $2 WHERE id = $1", [id, owner]);
  }
}
