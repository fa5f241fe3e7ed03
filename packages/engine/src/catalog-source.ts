import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { builtinDefinitions, loadCatalog, readDefinition, type Catalog, type ToolDefinition } from "@benchwright/catalog";
import type { EngineLog } from "./engine-log.js";
import type { ExecutionDefinition } from "./model/executions.js";
import type { BenchmarkDefinitionsRepository, DefinitionVersionRow } from "./store/benchmark-definitions-repository.js";

/** A definition written through the API, as the catalogue holds it: its version and digest beside it. */
export interface TeamDefinition {
  tool: ToolDefinition;
  row: DefinitionVersionRow;
}

/** Where a stored version's definition says it came from (never part of its digest). */
export function apiSource(id: string, version: number): string {
  return `api:${id}@${version}`;
}

/**
 * The catalog: the built-in tools, the definitions dropped into `<config dir>/benchmarks/`
 * (read again when that folder changes), and the team's written through the API (read again
 * from the database by `refresh`, which every read of the API and every write calls, so a
 * write through one server is what every other lists at once). A file that does not load (a
 * typo, a dangling symlink, a folder named `x.yaml`) is logged and left out while the rest
 * serve, so one bad file never takes the service down. A step uses the version its execution
 * recorded (`forExecution`, loaded by `pin`), never a later one.
 */
export class CatalogSource {
  private catalog?: Catalog;
  private signature?: string;
  private team: TeamDefinition[] = [];
  private teamSignature = "";
  /** Catalogues of one stored version each, by `id@version`: a version never changes, so they are kept. */
  private readonly pinned = new Map<string, Catalog>();

  constructor(
    private readonly extraDir: string,
    private readonly log: EngineLog,
    private readonly definitions?: BenchmarkDefinitionsRepository,
  ) {
    // Loaded at start, so that the problems of dropped-in files are logged when the server starts.
    this.current();
  }

  current(): Catalog {
    const signature = `${folderSignature(this.extraDir)}#${this.teamSignature}`;
    if (signature !== this.signature || !this.catalog) {
      this.signature = signature;
      // Bad dropped-in files never throw; only broken built-ins would, a bug of the package.
      this.catalog = loadCatalog({
        extraDirs: [this.extraDir],
        onError: (_file, e) => this.log(`benchmark definition skipped: ${e.message}`, { level: "warn" }),
        definitions: this.team.map((d) => d.tool),
      });
    }
    return this.catalog;
  }

  /** The catalog with the API's current definitions read again (one small query when none changed). */
  async refresh(): Promise<Catalog> {
    if (!this.definitions) return this.current();
    const heads = await this.definitions.heads();
    const signature = heads.map((h) => `${h.id}@${h.version}`).join(",");
    if (signature !== this.teamSignature) {
      const rows = await this.definitions.current();
      this.team = rows.map((row) => ({ tool: readDefinition(row.document, apiSource(row.id, row.version)), row }));
      this.teamSignature = rows.map((r) => `${r.id}@${r.version}`).join(",");
    }
    return this.current();
  }

  /** Whether a tool is one of the package's own (not a file's, nor the API's). */
  isBuiltin(tool: ToolDefinition): boolean {
    return builtinDefinitions().includes(tool);
  }

  /** The API's definitions as last refreshed. */
  teamDefinitions(): readonly TeamDefinition[] {
    return this.team;
  }

  /** The stored version of a tool the current catalogue serves from the API, or undefined (a built-in's, a file's). */
  teamVersionOf(toolId: string): DefinitionVersionRow | undefined {
    const tool = this.current().tool(toolId);
    return tool && this.team.find((d) => d.tool === tool)?.row;
  }

  /** Loads the version an execution recorded, so that `forExecution` has it (a no-op for a built-in's or a file's). */
  async pin(execution: ExecutionDefinition): Promise<void> {
    const version = execution.definition_version;
    if (version == null || !this.definitions || this.pinned.has(`${execution.tool_id}@${version}`)) return;
    const row = await this.definitions.version(execution.tool_id, version);
    if (!row) return;
    const tool = readDefinition(row.document, apiSource(row.id, row.version));
    this.pinned.set(`${execution.tool_id}@${version}`, loadCatalog({ definitions: [tool] }));
  }

  /** The catalogue an execution's steps use: the version it recorded when pinned, else the current one. */
  forExecution(execution?: ExecutionDefinition): Catalog {
    const version = execution?.definition_version;
    return (version != null && this.pinned.get(`${execution!.tool_id}@${version}`)) || this.current();
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
