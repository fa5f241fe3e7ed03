import type { Db } from "./db.js";

/** A provider configuration written through the API: its document sealed, never in clear. */
export interface ProviderConfigRow {
  name: string;
  version: number;
  document_sealed: string;
  updated: Date;
  updated_by: string | null;
}

const COLUMNS = "name, version, document_sealed, updated, updated_by";

/**
 * The API's provider configurations, read anew at each use: a write through one server is
 * what every other server and worker sharing the database reads next.
 */
export class ProviderConfigsRepository {
  constructor(private readonly db: Db) {}

  all(): Promise<ProviderConfigRow[]> {
    return this.db.query<ProviderConfigRow>(`SELECT ${COLUMNS} FROM provider_configs ORDER BY name`);
  }

  async get(name: string): Promise<ProviderConfigRow | undefined> {
    return (await this.db.query<ProviderConfigRow>(`SELECT ${COLUMNS} FROM provider_configs WHERE name = $1`, [name]))[0];
  }

  /** Creates it at version 1 or replaces it with the next version; `created` tells which. */
  async put(name: string, sealed: string, by: string | null): Promise<{ row: ProviderConfigRow; created: boolean }> {
    const [row] = await this.db.query<ProviderConfigRow & { created: boolean }>(
      `INSERT INTO provider_configs (name, version, document_sealed, updated_by) VALUES ($1, 1, $2, $3)
       ON CONFLICT (name) DO UPDATE SET version = provider_configs.version + 1, document_sealed = EXCLUDED.document_sealed,
         updated = now(), updated_by = EXCLUDED.updated_by
       RETURNING ${COLUMNS}, (xmax = 0) AS created`,
      [name, sealed, by],
    );
    const { created, ...rest } = row!;
    return { row: rest, created };
  }

  /**
   * Deletes it unless live sessions were made on it, in one transaction holding the row, so a
   * session made meanwhile is counted: `in_use` is how many there are (0 when deleted).
   */
  delete(name: string): Promise<{ found: boolean; inUse: number }> {
    return this.db.transaction(async (tx) => {
      const [held] = await tx.query<{ name: string }>("SELECT name FROM provider_configs WHERE name = $1 FOR UPDATE", [name]);
      if (!held) return { found: false, inUse: 0 };
      const [{ n }] = (await tx.query<{ n: number }>("SELECT count(*)::int AS n FROM sessions WHERE provider_name = $1 AND state <> 'deleted'", [name])) as [
        { n: number },
      ];
      if (n > 0) return { found: true, inUse: n };
      await tx.query("DELETE FROM provider_configs WHERE name = $1", [name]);
      return { found: true, inUse: 0 };
    });
  }
}
