import { checkDefinition } from "@benchwright/catalog";
import type { Benchmark, BenchmarkVersion } from "@benchwright/contract";
import { apiSource, type CatalogSource } from "../catalog-source.js";
import type { EngineLog } from "../engine-log.js";
import { BenchwrightError } from "../errors.js";
import { definitionDigest } from "../steps/provenance.js";
import type { BenchmarkDefinitionsRepository } from "../store/benchmark-definitions-repository.js";
import { nameClashes, toolWords } from "./definition-names.js";
import { definitionVersionView, teamBenchmarkView } from "./definition-views.js";

export interface BenchmarkDefinitionsOptions {
  catalogs: CatalogSource;
  rows: BenchmarkDefinitionsRepository;
  log: EngineLog;
}

/**
 * The team's benchmark definitions, written through the API: checked as the catalog checks a
 * file (and each script by `bash -n`), every problem in one 400 and nothing stored; each write
 * a new version with its digest. A deletion keeps the versions: executions made on one run it
 * to the end, and its versions stay readable; new executions can no longer choose it.
 */
export class BenchmarkDefinitions {
  constructor(private readonly options: BenchmarkDefinitionsOptions) {}

  /** Checks and stores the next version (1 when new); `created` tells whether the id was new. */
  async put(id: string, document: Record<string, unknown>, by?: string): Promise<{ view: Benchmark; created: boolean }> {
    const { catalogs, rows, log } = this.options;
    const catalog = await catalogs.refresh();
    const own = catalogs.teamDefinitions().find((d) => d.tool.id === id)?.tool;
    const checked = checkDefinition(document, apiSource(id, 0));
    const problems = checked.problems.map((p) => ({ path: `/body${p.pointer}`, message: p.message }));
    if (typeof document.id === "string" && document.id !== id) problems.push({ path: "/body/id", message: `is '${document.id}', not the path's '${id}'` });
    problems.push(...nameClashes(catalogs, catalog, id, document, own));
    if (problems.length || !checked.definition) {
      throw new BenchwrightError(
        "invalid_definition",
        `The benchmark definition '${id}' cannot be used: ${problems.map((p) => `${p.path.slice("/body".length) || "the document"} ${p.message}`).join("; ")}`,
        { errors: problems },
      );
    }
    this.refuseReadOnly(id);
    const digest = definitionDigest(checked.definition);
    const created = (await rows.versions(id)).every((r) => r.deleted !== null);
    const row = await rows.add(id, digest, document, by ?? null);
    await catalogs.refresh();
    log(`benchmark definition ${id} ${created ? "created" : "replaced"} (version ${row.version}, ${digest}) by ${by ?? "bootstrap"}`);
    return { view: teamBenchmarkView({ ...checked.definition, source: apiSource(id, row.version) }, row), created };
  }

  /** Marks it deleted (its versions stay for the executions made on them); 404 when there is none, 409 for a built-in's or a file's. */
  async delete(id: string, by?: string): Promise<void> {
    const { catalogs, rows, log } = this.options;
    await catalogs.refresh();
    this.refuseReadOnly(id);
    if (!(await rows.markDeleted(id))) throw this.notFound(id);
    await catalogs.refresh();
    log(`benchmark definition ${id} deleted by ${by ?? "bootstrap"}`);
  }

  /** Every version of a definition written through the API, the latest first, deleted or not. */
  async versions(id: string): Promise<BenchmarkVersion[]> {
    const found = await this.options.rows.versions(id);
    if (found.length === 0) throw this.notFound(id);
    return found.map(definitionVersionView);
  }

  async version(id: string, version: number): Promise<BenchmarkVersion> {
    const row = await this.options.rows.version(id, version);
    if (!row) throw new BenchwrightError("not_found", `No version ${version} of benchmark definition '${id}'`);
    return definitionVersionView(row);
  }

  /** A built-in tool or a file's is read-only: a team's definition of the same id (or an alias of it) is refused. */
  private refuseReadOnly(id: string): void {
    const { catalogs } = this.options;
    const tool = catalogs.current().tool(id);
    if (!tool || catalogs.teamDefinitions().some((d) => d.tool === tool)) return;
    const what = catalogs.isBuiltin(tool) ? "a built-in tool" : `a file's (${tool.source})`;
    // An alias is a name of the tool as much as its id: `testing` is idle's.
    if (tool.id !== id) throw new BenchwrightError("read_only", `Benchmark '${id}' is an alias of ${toolWords(catalogs, tool)}; it is read-only`);
    throw new BenchwrightError("read_only", `Benchmark '${id}' is ${what}; it is read-only`);
  }

  private notFound(id: string): BenchwrightError {
    return new BenchwrightError("not_found", `No benchmark definition '${id}' written through the API`, {
      choices: this.options.catalogs.teamDefinitions().map((d) => d.tool.id),
    });
  }
}
