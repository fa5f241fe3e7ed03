import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { definitionOf, parseDefinition } from "./definition.js";
import { CatalogError } from "./errors.js";
import { resolveParams } from "./params.js";
import { parsers } from "./parsers/index.js";
import { parsedBuiltins } from "./parsed-builtins.js";
import { buildPrepareScript, buildRunScript } from "./scripts.js";
import { toolVersionQuery } from "./tool-version.js";
import type { Catalog, CatalogErrorReporter, LoadCatalogOptions, Metric, MetricMeaning, ToolDefinition, WorkloadDefinition } from "./types.js";

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

function badFile(file: string, why: string): CatalogError {
  return new CatalogError("invalid_definition", `${file}: ${why}`, { file });
}

/** Why a directory entry cannot be read as a definition (fs errors say it in their code). */
function fsProblem(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return "is a symbolic link to nothing";
  if (code === "ELOOP") return "is a loop of symbolic links";
  if (code === "EACCES" || code === "EPERM") return "cannot be read (permission denied)";
  return `cannot be read (${code ?? (e as Error).message})`;
}

/**
 * The `*.yaml` / `*.yml` files of an extra directory, by name. Anything of that name that is
 * not a readable regular file (a dangling symlink, a directory, a FIFO) is reported and left
 * out, never thrown: one odd entry must not hide the others.
 */
function extraFiles(dir: string, onError: CatalogErrorReporter): string[] {
  if (!existsSync(dir)) return [];
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) {
      onError(dir, badFile(dir, "is not a directory"));
      return [];
    }
    names = readdirSync(dir);
  } catch (e) {
    onError(dir, badFile(dir, fsProblem(e)));
    return [];
  }
  const files: string[] = [];
  for (const name of names.filter((n) => /\.ya?ml$/i.test(n)).sort()) {
    const file = join(dir, name);
    try {
      if (!statSync(file).isFile()) {
        onError(file, badFile(file, "is not a regular file"));
        continue;
      }
    } catch (e) {
      onError(file, badFile(file, fsProblem(e)));
      continue;
    }
    files.push(file);
  }
  return files;
}

let builtins: ToolDefinition[] | undefined;

/**
 * Every definition of the built-in tools, read once (they are the package's own files); one
 * that does not load is a bug of the package, so it throws.
 */
export function builtinDefinitions(): ToolDefinition[] {
  const names = Object.keys(parsers);
  builtins ??= readBuiltins(names);
  return builtins;
}

/** The built-in definitions from the YAML parsed at build time where it is current, else from the file. */
function readBuiltins(names: string[]): ToolDefinition[] {
  const parsed = parsedBuiltins(BUILTIN_TOOLS_DIR);
  return builtinFiles().map((f) => {
    const text = readFileSync(f, "utf8");
    const raw = parsed(f, text);
    return raw === undefined ? parseDefinition(text, f, names) : definitionOf(raw, f, names);
  });
}

function readExtraDefinition(file: string, parserNames: string[]): ToolDefinition {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw badFile(file, fsProblem(e));
  }
  return parseDefinition(text, file, parserNames);
}

/**
 * The definitions of one extra directory. A file that cannot be read, is not a valid
 * definition, or claims an id an earlier file of the same directory already has (within one
 * directory that is a mistake; across directories it is an override) is reported and skipped.
 */
function extraDefinitions(dir: string, onError: CatalogErrorReporter): ToolDefinition[] {
  const names = Object.keys(parsers);
  const byId = new Map<string, string>();
  const defs: ToolDefinition[] = [];
  for (const file of extraFiles(dir, onError)) {
    let def: ToolDefinition;
    try {
      def = readExtraDefinition(file, names);
    } catch (e) {
      onError(file, e instanceof CatalogError ? e : badFile(file, `cannot be loaded: ${(e as Error).message}`));
      continue;
    }
    const other = byId.get(def.id);
    if (other) {
      onError(file, badFile(file, `tool id '${def.id}' is already defined in ${other}`));
      continue;
    }
    byId.set(def.id, file);
    defs.push(def);
  }
  return defs;
}

/**
 * Reads the built-in tools, then each extra directory in order; later definitions replace
 * earlier ones. A bad extra file is told to `options.onError` and left out, so the rest of
 * the catalog always loads.
 */
export function loadCatalog(options: LoadCatalogOptions = {}): Catalog {
  const onError = options.onError ?? (() => {});
  const tools = new Map<string, ToolDefinition>();
  for (const def of builtinDefinitions()) tools.set(def.id, def);
  for (const dir of options.extraDirs ?? []) {
    for (const def of extraDefinitions(dir, onError)) tools.set(def.id, def);
  }
  // Already checked (written through the API): they never replace a built-in or a file's.
  for (const def of options.definitions ?? []) if (!tools.has(def.id)) tools.set(def.id, def);
  const prelude = readFileSync(PRELUDE_FILE, "utf8");
  // Aliases resolve only where no tool has that id: a definition dropped in under the name wins.
  // An API definition's alias never takes a name a built-in or a file answers to (they come last).
  const fromApi = new Set(options.definitions ?? []);
  const aliases = new Map<string, ToolDefinition>();
  for (const def of tools.values()) {
    for (const alias of def.aliases ?? []) if (!tools.has(alias) && !(fromApi.has(def) && aliases.has(alias))) aliases.set(alias, def);
  }
  const find = (id: string) => tools.get(id) ?? aliases.get(id);

  function mustTool(toolId: string): ToolDefinition {
    const tool = find(toolId);
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
    tool: find,
    workload: (toolId, workloadId) => find(toolId)?.workloads.find((w) => w.id === workloadId),
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
    params(toolId, workloadId, given) {
      const [, workload] = mustWorkload(toolId, workloadId);
      return resolveParams(workload.params, given);
    },
    parse(toolId, workloadId, output): Metric[] {
      const [tool] = mustWorkload(toolId, workloadId);
      // Validation guarantees the parser exists.
      const metrics = parsers[tool.parser]!(output, { tool: toolId, workload: workloadId });
      return tool.metrics ? metrics.map((m) => withMeaning(m, tool.metrics!)) : metrics;
    },
    toolVersion(toolId, platform) {
      return toolVersionQuery(prelude, mustTool(toolId), platform);
    },
  };
}

/** A figure with the direction its definition declares, when it declares its name in the same unit. */
function withMeaning(metric: Metric, meanings: Record<string, MetricMeaning>): Metric {
  const meaning = Object.hasOwn(meanings, metric.name) ? meanings[metric.name] : undefined;
  return meaning && meaning.unit === metric.unit ? { ...metric, better: meaning.better } : metric;
}
