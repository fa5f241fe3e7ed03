import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ServerConfig } from "./config.js";

/** The flag that lets `tokens` and `sweep` make a database where none is. */
export const CREATE_DATABASE_FLAG = "--create-database";

/** Where a command's database is, said without a credential, and whether it is there already. */
export interface DatabaseSeen {
  where: string;
  exists: boolean;
}

/**
 * The database `serve` would open with this configuration: PostgreSQL (which exists or the
 * connection fails) or the embedded one in BENCHWRIGHT_DATA_DIR (`db/`), which opening would
 * make if it is not there.
 */
function databaseOf(config: Pick<ServerConfig, "dataDir" | "databaseUrl">): DatabaseSeen {
  if (config.databaseUrl) {
    const url = new URL(config.databaseUrl);
    return { where: `PostgreSQL ${url.host}${url.pathname} (DATABASE_URL)`, exists: true };
  }
  const dir = join(config.dataDir, "db");
  // PGlite's (PostgreSQL's) own mark of a data directory it made.
  return { where: `the embedded database ${dir} (BENCHWRIGHT_DATA_DIR)`, exists: existsSync(join(dir, "PG_VERSION")) };
}

/** A command that only makes sense on the server's database found none, and was not asked to make one. */
export class NoDatabase extends Error {
  constructor(readonly seen: DatabaseSeen) {
    super(
      `no database: ${seen.where} does not exist. Run this where the server runs, or set BENCHWRIGHT_DATA_DIR (or DATABASE_URL) to the server's; ` +
        `${CREATE_DATABASE_FLAG} makes a new, empty one (with a secret key of its own: a running server will not know its tokens)`,
    );
    this.name = "NoDatabase";
  }
}

/** Says which database the command opens (on `note`), or throws NoDatabase where none is and `create` is not set. */
export function checkDatabase(config: Pick<ServerConfig, "dataDir" | "databaseUrl">, create: boolean, note: (line: string) => void): void {
  const seen = databaseOf(config);
  if (!seen.exists && !create) throw new NoDatabase(seen);
  note(`database: ${seen.where}${seen.exists ? "" : ", made now"}`);
}
