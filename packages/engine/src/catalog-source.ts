import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { loadCatalog, type Catalog } from "@benchwright/catalog";
import type { EngineLog } from "./engine-log.js";

/**
 * The catalog, with the definitions dropped into `<config dir>/benchmarks/` read again when
 * that folder changes. A file that does not load (a typo, a dangling symlink, a folder named
 * `x.yaml`) is logged and left out while the built-ins and the other files serve, so one bad
 * file never takes the service down.
 */
export class CatalogSource {
  private catalog?: Catalog;
  private signature?: string;

  constructor(
    private readonly extraDir: string,
    private readonly log: EngineLog,
  ) {
    // Loaded at start, so that the problems of dropped-in files are logged when the server starts.
    this.current();
  }

  current(): Catalog {
    const signature = folderSignature(this.extraDir);
    if (signature !== this.signature || !this.catalog) {
      this.signature = signature;
      // Bad dropped-in files never throw; only broken built-ins would, a bug of the package.
      this.catalog = loadCatalog({
        extraDirs: [this.extraDir],
        onError: (_file, e) => this.log(`benchmark definition skipped: ${e.message}`, { level: "warn" }),
      });
    }
    return this.catalog;
  }
}

/**
 * Names, sizes and times of the folder's entries: any edit, addition or removal changes it.
 * An entry that cannot be stat'ed (a dangling symlink) counts by its error, so that it
 * changes the signature when it is fixed, and never throws.
 */
function folderSignature(dir: string): string {
  if (!existsSync(dir)) return "";
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    return `!${errorCode(e)}`;
  }
  return names
    .sort()
    .map((name) => {
      try {
        const s = statSync(join(dir, name));
        return `${name}:${s.size}:${s.mtimeMs}`;
      } catch (e) {
        return `${name}:!${errorCode(e)}`;
      }
    })
    .join("|");
}

function errorCode(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? "error";
}
