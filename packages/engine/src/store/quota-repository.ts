import type { Db } from "./db.js";
import { insertSessionPrincipal, liveSessionCount, stepsUnderWayCount } from "./sql/quota-sql.js";
import { run } from "./sql/sql.js";

/** Who made which session, and what of theirs is live: what a principal's quotas count. */
export class QuotaRepository {
  constructor(private readonly db: Db) {}

  async recordSessionPrincipal(sessionId: string, principal: string): Promise<void> {
    await run(this.db, insertSessionPrincipal(sessionId, principal));
  }

  async liveSessions(principal: string): Promise<number> {
    return (await run<{ n: number }>(this.db, liveSessionCount(principal)))[0]!.n;
  }

  async stepsUnderWay(principal: string): Promise<number> {
    return (await run<{ n: number }>(this.db, stepsUnderWayCount(principal)))[0]!.n;
  }
}
