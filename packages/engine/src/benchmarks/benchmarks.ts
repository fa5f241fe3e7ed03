import type { ToolDefinition } from "@benchwright/catalog";
import type { Benchmark } from "@benchwright/contract";
import type { CatalogSource } from "../catalog-source.js";
import { BenchwrightError } from "../errors.js";
import { definitionDigest } from "../steps/provenance.js";
import { sourcedBenchmarkView } from "./definition-views.js";

export interface BenchmarksOptions {
  catalogs: CatalogSource;
}

/** What a client chooses from: the catalog's benchmarks, built in, from files and written through the API. */
export class Benchmarks {
  constructor(private readonly options: BenchmarksOptions) {}

  async list(): Promise<Benchmark[]> {
    const catalog = await this.options.catalogs.refresh();
    return catalog.tools().map((t) => this.view(t));
  }

  async get(id: string): Promise<Benchmark> {
    const catalog = await this.options.catalogs.refresh();
    const tool = catalog.tool(id);
    if (!tool) throw new BenchwrightError("not_found", `No benchmark '${id}'`, { choices: catalog.tools().map((t) => t.id) });
    return this.view(tool);
  }

  private view(tool: ToolDefinition): Benchmark {
    const { catalogs } = this.options;
    const row = catalogs.teamDefinitions().find((d) => d.tool === tool)?.row;
    if (row) return sourcedBenchmarkView(tool, "api", row.digest, row);
    return sourcedBenchmarkView(tool, catalogs.isBuiltin(tool) ? "builtin" : "file", definitionDigest(tool));
  }
}
