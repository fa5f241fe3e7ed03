import type { ResourceRow } from "../../model/resources.js";
import type { Sql } from "./sql.js";

/** Records a resource, or records it again (alive, with new metadata) when it was destroyed. */
export function recordResource(row: Omit<ResourceRow, "destroyed_at" | "created">): Sql {
  return {
    text: `INSERT INTO resources (session_id, provider_name, kind, resource_id, meta_sealed, created) VALUES ($1, $2, $3, $4, $5, now())
       ON CONFLICT (session_id, kind, resource_id) DO UPDATE SET meta_sealed = EXCLUDED.meta_sealed, destroyed_at = NULL`,
    values: [row.session_id, row.provider_name, row.kind, row.resource_id, row.meta_sealed],
  };
}

export function markResourceDestroyed(sessionId: string, kind: string, resourceId: string): Sql {
  return {
    text: "UPDATE resources SET destroyed_at = now() WHERE session_id = $1 AND kind = $2 AND resource_id = $3 AND destroyed_at IS NULL",
    values: [sessionId, kind, resourceId],
  };
}

/** Live resources counted by configuration, driver and kind, as `provider`, `driver`, `kind` and `n`. */
export function liveResourceCounts(): Sql {
  return {
    text: `SELECT r.provider_name AS provider, s.driver, r.kind, count(*) AS n
         FROM resources r LEFT JOIN sessions s ON s.id = r.session_id
        WHERE r.destroyed_at IS NULL
        GROUP BY r.provider_name, s.driver, r.kind`,
  };
}

/** Every resource of these kinds the sessions had, destroyed or not, in the order they were recorded. */
export function resourceLifetimes(sessionIds: string[], kinds: string[]): Sql {
  return {
    text: `SELECT session_id, kind, resource_id, created, destroyed_at FROM resources
            WHERE session_id = ANY($1) AND kind = ANY($2) ORDER BY seq`,
    values: [sessionIds, kinds],
  };
}

export function liveResources(sessionId: string): Sql {
  return { text: "SELECT * FROM resources WHERE session_id = $1 AND destroyed_at IS NULL ORDER BY seq", values: [sessionId] };
}
