import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { loadCatalog, type Catalog } from "@benchwright/catalog";

/**
 * The catalog, with the definitions dropped into `<config dir>/benchmarks/` read again when
 * that folder changes. A definition that does not load is reported and left out; the rest
 * of the catalog stays as it was, so a typo in one file never takes the service down.
 */
export class CatalogSource {
  private catalog?: Catalog;
  private signature?: string;

  constructor(
    private readonly extraDir: string,
    private readonly log: (line: string) => void,
  ) {
    // Loaded at start, so that a broken file dropped in later has a last good catalog to keep.
    this.current();
  }

  current(): Catalog {
    const signature = folderSignature(this.extraDir);
    if (signature !== this.signature || !this.catalog) {
      this.signature = signature;
      try {
        this.catalog = loadCatalog({ extraDirs: [this.extraDir] });
      } catch (e) {
        this.log(`benchmark definitions in ${this.extraDir} not loaded: ${(e as Error).message}`);
        // At start, with nothing loaded yet, the built-in tools still serve.
        this.catalog ??= loadCatalog();
      }
    }
    return this.catalog;
  }
}

/** Names, sizes and times of the folder's files: any edit, addition or removal changes it. */
function folderSignature(dir: string): string {
  if (!existsSync(dir)) return "";
  return readdirSync(dir)
    .sort()
    .map((name) => {
      const s = statSync(join(dir, name));
      return `${name}:${s.size}:${s.mtimeMs}`;
    })
    .join("|");
}
