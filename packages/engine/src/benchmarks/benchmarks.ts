import type { Benchmark, Provider as ProviderView } from "@benchwright/contract";
import type { CatalogSource } from "../catalog-source.js";
import type { ProviderConfigFile } from "../config/provider-config.js";
import { BenchwrightError } from "../errors.js";
import { benchmarkView } from "../views/benchmark-views.js";

export interface BenchmarksOptions {
  catalogs: CatalogSource;
  /** The stored Form A configurations, as they are now (see storedProviderConfigs). */
  providerConfigs: () => ProviderConfigFile[];
}

/** What a client chooses from: the catalog's benchmarks and the stored provider configurations. */
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

  providers(): ProviderView[] {
    return this.options.providerConfigs().map((c) => ({
      name: c.name,
      service_types: Object.keys(c.services),
      class: c.providerClass,
      ...(typeof c.provider.driver === "string" ? { driver: c.provider.driver } : {}),
      ...(typeof c.provider.region === "string" ? { region: c.provider.region } : {}),
    }));
  }
}
