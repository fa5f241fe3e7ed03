import type { Benchmark } from "@benchwright/contract";
import type { CatalogSource } from "../catalog-source.js";
import { BenchwrightError } from "../errors.js";
import { benchmarkView } from "../views/benchmark-views.js";

export interface BenchmarksOptions {
  catalogs: CatalogSource;
}

/** What a client chooses from: the catalog's benchmarks. */
export class Benchmarks {
  constructor(private readonly options: BenchmarksOptions) {}

  list(): Benchmark[] {
    return this.options.catalogs
      .current()
      .tools()
      .map((t) => benchmarkView(t));
  }

  get(id: string): Benchmark {
    const catalog = this.options.catalogs.current();
    const tool = catalog.tool(id);
    if (!tool) throw new BenchwrightError("not_found", `No benchmark '${id}'`, { choices: catalog.tools().map((t) => t.id) });
    return benchmarkView(tool);
  }
}
