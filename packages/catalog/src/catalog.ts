import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseDefinition } from "./definition.js";
import { CatalogError } from "./errors.js";
import { parsers } from "./parsers/index.js";
import { buildPrepareScript, buildRunScript } from "./scripts.js";
import type { Catalog, LoadCatalogOptions, Metric, ToolDefinition, WorkloadDefinition } from "./types.js";

// `tools/` sits next to `src/` and `dist/`, so one relative URL works for tests and the build.
export const BUILTIN_TOOLS_DIR = fileURLToPath(new URL("../tools/", import.meta.url));
const PRELUDE_FILE = join(BUILTIN_TOOLS_DIR, "lib.sh");

function builtinFiles(): string[] {
  return readdirSync(BUILTIN_TOOLS_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => join(BUILTIN_TOOLS_DIR, e.name, "definition.yaml"))
    .filter((f) => existsSync(f))
    .sort();
}

function extraFiles(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir)
    .filter((name) => /\.ya?ml$/i.test(name))
    .map((name) => join(dir, name))
    .filter((f) => statSync(f).isFile())
    .sort();
}

function readDefinitions(files: string[]): ToolDefinition[] {
  const names = Object.keys(parsers);
  const defs = files.map((f) => parseDefinition(readFileSync(f, "utf8"), f, names));
  // Within one directory two files claiming one id is a mistake; across directories it is an override.
  const byId = new Map<string, string>();
  for (const d of defs) {
    const other = byId.get(d.id);
    if (other) {
      throw new CatalogError("invalid_definition", `${d.source}: tool id '${d.id}' is already defined in ${other}`, {
        file: d.source,
      });
    }
    byId.set(d.id, d.source);
  }
  return defs;
}

/** Reads the built-in tools, then each extra directory in order; later definitions replace earlier ones. */
export function loadCatalog(options: LoadCatalogOptions = {}): Catalog {
  const tools = new Map<string, ToolDefinition>();
  for (const def of readDefinitions(builtinFiles())) tools.set(def.id, def);
  for (const dir of options.extraDirs ?? []) {
    for (const def of readDefinitions(extraFiles(dir))) tools.set(def.id, def);
  }
  const prelude = readFileSync(PRELUDE_FILE, "utf8");

  function mustTool(toolId: string): ToolDefinition {
    const tool = tools.get(toolId);
    if (!tool) {
      throw new CatalogError("unknown_tool", `No tool '${toolId}' in the catalog`, { choices: [...tools.keys()] });
    }
    return tool;
  }

  function mustWorkload(toolId: string, workloadId: string): [ToolDefinition, WorkloadDefinition] {
    const tool = mustTool(toolId);
    const workload = tool.workloads.find((w) => w.id === workloadId);
    if (!workload) {
      throw new CatalogError("unknown_workload", `No workload '${workloadId}' for tool '${toolId}'`, {
        choices: tool.workloads.map((w) => w.id),
      });
    }
    return [tool, workload];
  }

  return {
    tools: () => [...tools.values()],
    tool: (id) => tools.get(id),
    workload: (toolId, workloadId) => tools.get(toolId)?.workloads.find((w) => w.id === workloadId),
    prepareScript(toolId, workloadId, opts) {
      const [tool, workload] = mustWorkload(toolId, workloadId);
      return buildPrepareScript(prelude, tool, workload, opts);
    },
    runScript(toolId, workloadId, opts) {
      const [tool, workload] = mustWorkload(toolId, workloadId);
      return buildRunScript(prelude, tool, workload, opts);
    },
    timeouts(toolId, workloadId) {
      const [tool, workload] = mustWorkload(toolId, workloadId);
      return {
        prepare: workload.timeout?.prepare ?? tool.timeout.prepare,
        run: workload.timeout?.run ?? tool.timeout.run,
      };
    },
    parse(toolId, workloadId, output): Metric[] {
      const [tool] = mustWorkload(toolId, workloadId);
      // Validation guarantees the parser exists.
      return parsers[tool.parser]!(output, { tool: toolId, workload: workloadId });
    },
  };
}
