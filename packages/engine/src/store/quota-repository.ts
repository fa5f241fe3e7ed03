import type { Db } from "./db.js";
import { liveSessionCount, stepsUnderWayCount } from "./sql/quota-sql.js";
import { run } from "./sql/sql.js";

/** What of a principal's own sessions (by their owner) is live: what its quotas count. */
export class QuotaRepository {
  constructor(private readonly db: Db) {}

  async liveSessions(principal: string): Promise<number> {
    return (await run<{ n: number }>(this.db, liveSessionCount(principal)))[0]!.n;
  }

  async stepsUnderWay(principal: string): Promise<number> {
    return (await run<{ n: number }>(this.db, stepsUnderWayCount(principal)))[0]!.n;
  }
}
