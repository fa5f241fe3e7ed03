import type { LiveResourceCount, ResourceLifetime, ResourceRow } from "../model/resources.js";
import type { Db } from "./db.js";
import { liveResourceCounts, liveResources, markResourceDestroyed, recordResource, resourceLifetimes } from "./sql/resources-sql.js";
import { run } from "./sql/sql.js";

/** The ledger of what providers made at the cloud, kept until it is destroyed. */
export class ResourcesRepository {
  constructor(private readonly db: Db) {}

  async record(row: Omit<ResourceRow, "destroyed_at" | "created">): Promise<void> {
    await run(this.db, recordResource(row));
  }

  async markDestroyed(sessionId: string, kind: string, resourceId: string): Promise<void> {
    await run(this.db, markResourceDestroyed(sessionId, kind, resourceId));
  }

  /** Resources not destroyed, counted by configuration, driver and kind: a few rows per cloud session are scanned. */
  async liveCounts(): Promise<LiveResourceCount[]> {
    const rows = await run<{ provider: string; driver: string | null; kind: string; n: string | number }>(this.db, liveResourceCounts());
    return rows.map((r) => ({ provider: r.provider, driver: r.driver ?? "", kind: r.kind, count: Number(r.n) }));
  }

  /** When each resource of these kinds the sessions had was created and destroyed (null: it lives). */
  async lifetimes(sessionIds: string[], kinds: string[]): Promise<ResourceLifetime[]> {
    if (!sessionIds.length || !kinds.length) return [];
    return run<ResourceLifetime>(this.db, resourceLifetimes(sessionIds, kinds));
  }

  async live(sessionId: string): Promise<ResourceRow[]> {
    return run<ResourceRow>(this.db, liveResources(sessionId));
  }
}
