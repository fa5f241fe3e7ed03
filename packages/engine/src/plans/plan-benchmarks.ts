import type { Catalog } from "@benchwright/catalog";
import type { components } from "@benchwright/contract";
import { catalogWorkload, jsonPointerToken } from "../executions/catalog-workload.js";
import { matrixSize, type PlanParams } from "../model/param-matrix.js";
import { problemsOf, type PlanProblem } from "./plan-problems.js";

type BenchmarkCreate = components["schemas"]["PlanBenchmarkCreate"];
type Benchmark = components["schemas"]["PlanBenchmark"];

/**
 * Checks each benchmark as an execution's creation would (its tool, its workload, each value
 * of each param by the catalog's own check) and counts the cells its lists make.
 */
export function checkBenchmarks(given: readonly BenchmarkCreate[], catalog: Catalog): { benchmarks: Benchmark[]; problems: PlanProblem[] } {
  const benchmarks: Benchmark[] = [];
  const problems: PlanProblem[] = [];
  given.forEach((b, i) => {
    const at = `/body/benchmarks/${i}`;
    const params = (b.params ?? {}) as PlanParams;
    const zip = b.zip ?? false;
    const matrix = matrixSize(params, zip);
    problems.push(...matrix.problems.map((p) => ({ path: `${at}/${p.at}`, message: p.message, code: "validation_failed" as const })));
    let found: ReturnType<typeof catalogWorkload>;
    try {
      found = catalogWorkload(catalog, b.tool, b.workload);
    } catch (e) {
      problems.push(...problemsOf(e, at, (e as { code?: string }).code === "unknown_tool" ? "/tool" : "/workload"));
      return;
    }
    const { tool, workload } = found;
    for (const [name, value] of Object.entries(params)) problems.push(...valueProblems(catalog, tool.id, workload.id, name, value, `${at}/params`));
    benchmarks.push({ tool: tool.id, workload: workload.id, params, zip, cells: matrix.cells });
  });
  return { benchmarks, problems };
}

/**
 * Each value of a param checked alone by the catalog (`catalog.params`, as an execution's are):
 * a list's at its index, or once at the param when every value fails alike (an unknown name).
 */
function valueProblems(catalog: Catalog, tool: string, workload: string, name: string, value: PlanParams[string], at: string): PlanProblem[] {
  const path = `${at}/${jsonPointerToken(name)}`;
  const values = Array.isArray(value) ? value : [value];
  const messages = values.map((v) => catalog.params(tool, workload, { [name]: v }).problems[0]?.message);
  if (Array.isArray(value) && messages.length > 1 && messages.every((m) => m !== undefined && m === messages[0])) {
    return [{ path, message: `${messages[0]} (each value)`, code: "validation_failed" }];
  }
  return messages.flatMap((message, k) =>
    message === undefined ? [] : [{ path: Array.isArray(value) ? `${path}/${k}` : path, message, code: "validation_failed" as const }],
  );
}
