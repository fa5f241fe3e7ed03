import type { Catalog, ParamDeclaration } from "@benchwright/catalog";
import type { Benchmark } from "@benchwright/contract";
import type { ProblemExtras } from "../errors.js";

/** A tool of the catalog as GET /benchmarks shows it. */
export function benchmarkView(tool: ReturnType<Catalog["tools"]>[number]): Benchmark {
  return {
    id: tool.id,
    aliases: tool.aliases ?? [],
    tool_name: tool.tool_name,
    description: tool.description,
    workloads: tool.workloads.map((w) => ({
      id: w.id,
      workload_name: w.workload_name,
      workload_description: w.workload_description,
      categories: w.categories,
      params: paramViews(w.params),
      ...(w.roles ? { roles: Object.entries(w.roles).map(([name, role]) => ({ name, ...role })) } : {}),
    })),
    metrics: Object.entries(tool.metrics ?? {}).map(([name, meaning]) => ({ name, ...meaning })),
  };
}

/** A workload's parameters as a list: in a benchmark's view, and in a problem about them. */
export function paramViews(params: Record<string, ParamDeclaration>): NonNullable<ProblemExtras["parameters"]> {
  return Object.entries(params).map(([name, decl]) => ({ name, ...decl }));
}
