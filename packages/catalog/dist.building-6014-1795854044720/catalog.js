import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseDefinition } from "./definition.js";
import { CatalogError } from "./errors.js";
import { resolveParams } from "./params.js";
import { parsers } from "./parsers/index.js";
import { buildPrepareScript, buildRunScript } from "./scripts.js";
import { toolVersionQuery } from "./tool-version.js";
const BUILTIN_TOOLS_DIR = fileURLToPath(new URL("../tools/", import.meta.url));
const PRELUDE_FILE = join(BUILTIN_TOOLS_DIR, "lib.sh");
function builtinFiles() {
  return readdirSync(BUILTIN_TOOLS_DIR, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => join(BUILTIN_TOOLS_DIR, e.name, "definition.yaml")).filter((f) => existsSync(f)).sort();
}
function badFile(file, why) {
  return new CatalogError("invalid_definition", `${file}: ${why}`, { file });
}
function fsProblem(e) {
  const code = e.code;
  if (code === "ENOENT") return "is a symbolic link to nothing";
  if (code === "ELOOP") return "is a loop of symbolic links";
  if (code === "EACCES" || code === "EPERM") return "cannot be read (permission denied)";
  return `cannot be read (${code ?? e.message})`;
}
function extraFiles(dir, onError) {
  if (!existsSync(dir)) return [];
  let names;
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
  const files = [];
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
function builtinDefinitions() {
  const names = Object.keys(parsers);
  return builtinFiles().map((f) => parseDefinition(readFileSync(f, "utf8"), f, names));
}
function readExtraDefinition(file, parserNames) {
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw badFile(file, fsProblem(e));
  }
  return parseDefinition(text, file, parserNames);
}
function extraDefinitions(dir, onError) {
  const names = Object.keys(parsers);
  const byId = /* @__PURE__ */ new Map();
  const defs = [];
  for (const file of extraFiles(dir, onError)) {
    let def;
    try {
      def = readExtraDefinition(file, names);
    } catch (e) {
      onError(file, e instanceof CatalogError ? e : badFile(file, `cannot be loaded: ${e.message}`));
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
function loadCatalog(options = {}) {
  const onError = options.onError ?? (() => {
  });
  const tools = /* @__PURE__ */ new Map();
  for (const def of builtinDefinitions()) tools.set(def.id, def);
  for (const dir of options.extraDirs ?? []) {
    for (const def of extraDefinitions(dir, onError)) tools.set(def.id, def);
  }
  const prelude = readFileSync(PRELUDE_FILE, "utf8");
  const aliases = /* @__PURE__ */ new Map();
  for (const def of tools.values()) for (const alias of def.aliases ?? []) if (!tools.has(alias)) aliases.set(alias, def);
  const find = (id) => tools.get(id) ?? aliases.get(id);
  function mustTool(toolId) {
    const tool = find(toolId);
    if (!tool) {
      throw new CatalogError("unknown_tool", `No tool '${toolId}' in the catalog`, { choices: [...tools.keys()] });
    }
    return tool;
  }
  function mustWorkload(toolId, workloadId) {
    const tool = mustTool(toolId);
    const workload = tool.workloads.find((w) => w.id === workloadId);
    if (!workload) {
      throw new CatalogError("unknown_workload", `No workload '${workloadId}' for tool '${toolId}'`, {
        choices: tool.workloads.map((w) => w.id)
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
        run: workload.timeout?.run ?? tool.timeout.run
      };
    },
    params(toolId, workloadId, given) {
      const [, workload] = mustWorkload(toolId, workloadId);
      return resolveParams(workload.params, given);
    },
    parse(toolId, workloadId, output) {
      const [tool] = mustWorkload(toolId, workloadId);
      const metrics = parsers[tool.parser](output, { tool: toolId, workload: workloadId });
      return tool.metrics ? metrics.map((m) => withMeaning(m, tool.metrics)) : metrics;
    },
    toolVersion(toolId, platform) {
      return toolVersionQuery(prelude, mustTool(toolId), platform);
    }
  };
}
function withMeaning(metric, meanings) {
  const meaning = Object.hasOwn(meanings, metric.name) ? meanings[metric.name] : void 0;
  return meaning && meaning.unit === metric.unit ? { ...metric, better: meaning.better } : metric;
}
export {
  BUILTIN_TOOLS_DIR,
  loadCatalog
};
//# sourceMappingURL=catalog.js.map
