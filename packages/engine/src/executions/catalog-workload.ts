import type { Catalog } from "@benchwright/catalog";
import { BenchwrightError } from "../errors.js";

type ToolDefinition = NonNullable<ReturnType<Catalog["tool"]>>;
type WorkloadDefinition = NonNullable<ReturnType<Catalog["workload"]>>;

/** A catalog's tool (by its id or a name it answers to) and one of its workloads, or the 400 that names the unknown one and the choices. */
export function catalogWorkload(catalog: Catalog, toolId: string, workloadId: string): { tool: ToolDefinition; workload: WorkloadDefinition } {
  const tool = catalog.tool(toolId);
  if (!tool) {
    throw new BenchwrightError("unknown_tool", `No tool '${toolId}'`, { choices: catalog.tools().map((t) => t.id) });
  }
  const workload = tool.workloads.find((w) => w.id === workloadId);
  if (!workload) {
    throw new BenchwrightError("unknown_workload", `Tool '${tool.id}' has no workload '${workloadId}'`, {
      choices: tool.workloads.map((w) => w.id),
    });
  }
  return { tool, workload };
}

/** A name as one token of a JSON Pointer (RFC 6901): a client's unknown name may hold `/` or `~`. */
export function jsonPointerToken(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}
