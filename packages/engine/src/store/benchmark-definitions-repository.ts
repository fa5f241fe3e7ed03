import type { Db } from "./db.js";

/** One version of a benchmark definition written through the API: never changed once written. */
export interface DefinitionVersionRow {
  id: string;
  version: number;
  /** `sha256:<hex>` of the checked definition's canonical JSON (what a run's provenance shows). */
  digest: string;
  document: Record<string, unknown>;
  created: Date;
  created_by: string | null;
  /** When the definition was deleted: its versions stay, for the executions made on them. */
  deleted: Date | null;
}

/** A definition's current version, without its document: what tells a process its catalogue is stale. */
export interface DefinitionHead {
  id: string;
  version: number;
}

const COLUMNS = "id, version, digest, document, created, created_by, deleted";

/**
 * The API's benchmark definitions, every version kept, read anew by every process: a write
 * through one server is what the others read at their next use.
 */
export class BenchmarkDefinitionsRepository {
  constructor(private readonly db: Db) {}

  /** The current version of each definition not deleted, by id. */
  heads(): Promise<DefinitionHead[]> {
    return this.db.query<DefinitionHead>("SELECT id, max(version) AS version FROM benchmark_definitions WHERE deleted IS NULL GROUP BY id ORDER BY id");
  }

  /** The current versions with their documents. */
  current(): Promise<DefinitionVersionRow[]> {
    return this.db.query<DefinitionVersionRow>(`SELECT DISTINCT ON (id) ${COLUMNS} FROM benchmark_definitions WHERE deleted IS NULL ORDER BY id, version DESC`);
  }

  /** Every version of one definition, the latest first (deleted ones too). */
  versions(id: string): Promise<DefinitionVersionRow[]> {
    return this.db.query<DefinitionVersionRow>(`SELECT ${COLUMNS} FROM benchmark_definitions WHERE id = $1 ORDER BY version DESC`, [id]);
  }

  async version(id: string, version: number): Promise<DefinitionVersionRow | undefined> {
    return (await this.db.query<DefinitionVersionRow>(`SELECT ${COLUMNS} FROM benchmark_definitions WHERE id = $1 AND version = $2`, [id, version]))[0];
  }

  /**
   * Adds the next version (1 for a new id, or after every earlier one, deleted or not). Two
   * writes at once both get a version: the one that lost the number tries the next.
   */
  async add(id: string, digest: string, document: Record<string, unknown>, by: string | null): Promise<DefinitionVersionRow> {
    for (;;) {
      const [row] = await this.db.query<DefinitionVersionRow>(
        `INSERT INTO benchmark_definitions (id, version, digest, document, created_by)
         SELECT $1, coalesce(max(version), 0) + 1, $2, $3, $4 FROM benchmark_definitions WHERE id = $1
         ON CONFLICT (id, version) DO NOTHING RETURNING ${COLUMNS}`,
        [id, digest, JSON.stringify(document), by],
      );
      if (row) return row;
    }
  }

  /** Marks every version deleted; false when there was no current one. */
  async markDeleted(id: string): Promise<boolean> {
    const rows = await this.db.query<{ version: number }>(
      "UPDATE benchmark_definitions SET deleted = now() WHERE id = $1 AND deleted IS NULL RETURNING version",
      [id],
    );
    return rows.length > 0;
  }
}
