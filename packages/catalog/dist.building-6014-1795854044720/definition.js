import { parse as parseYaml } from "yaml";
import { CatalogError } from "./errors.js";
import { paramDeclarations } from "./params.js";
const ID_PATTERN = /^[a-z0-9][a-z0-9_.-]*$/i;
const DEFAULT_TIMEOUT = { prepare: 900, run: 600 };
const TOOL_SCRIPT_KEY = /^(check|lib|(install|version)(_[a-z0-9]+)*)$/;
const WORKLOAD_SCRIPT_KEY = /^(prepare|run)(_[a-z0-9]+)*(@[a-z][a-z0-9_]*)?$/;
const ROLE_NAME = /^[a-z][a-z0-9_]*$/;
const MAX_ROLE_COUNT = 16;
function isObject(v) {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
class Problems {
  list = [];
  add(path, message) {
    this.list.push(`${path}: ${message}`);
  }
}
function requiredString(raw, key, path, problems) {
  const v = raw[key];
  if (typeof v === "string" && v.trim() !== "") return v;
  problems.add(`${path}${key}`, v === void 0 ? "is missing" : "must be a non-empty string");
  return "";
}
function optionalString(raw, key, path, problems, fallback) {
  const v = raw[key];
  if (v === void 0 || v === null) return fallback;
  if (typeof v === "string") return v;
  problems.add(`${path}${key}`, "must be a string");
  return fallback;
}
function id(raw, path, problems) {
  const v = requiredString(raw, "id", path, problems);
  if (v && !ID_PATTERN.test(v)) {
    problems.add(`${path}id`, `'${v}' is not a valid id (letters, digits, '_', '.', '-'; starting with a letter or digit)`);
  }
  return v;
}
function scripts(raw, path, keyPattern, problems) {
  const v = raw.scripts;
  if (v === void 0 || v === null) return {};
  if (!isObject(v)) {
    problems.add(`${path}scripts`, "must be a mapping of script names to bash scripts");
    return {};
  }
  const out = {};
  for (const [key, script] of Object.entries(v)) {
    if (!keyPattern.test(key)) problems.add(`${path}scripts.${key}`, "is not a known script name");
    else if (typeof script !== "string") problems.add(`${path}scripts.${key}`, "must be a string");
    else out[key] = script;
  }
  return out;
}
function seconds(v, path, problems) {
  if (v === void 0 || v === null) return void 0;
  if (typeof v === "number" && Number.isFinite(v) && v > 0) return v;
  problems.add(path, "must be a positive number of seconds");
  return void 0;
}
function timeout(raw, path, problems) {
  const v = raw.timeout;
  if (v === void 0 || v === null) return void 0;
  if (!isObject(v)) {
    problems.add(`${path}timeout`, "must be a mapping {prepare, run} in seconds");
    return void 0;
  }
  for (const key of Object.keys(v)) {
    if (key !== "prepare" && key !== "run") problems.add(`${path}timeout.${key}`, "is not prepare or run");
  }
  return {
    prepare: seconds(v.prepare, `${path}timeout.prepare`, problems),
    run: seconds(v.run, `${path}timeout.run`, problems)
  };
}
const METRIC_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]*$/;
const BETTER = ["higher", "lower"];
function* namedMappings(mapping, prefix, pattern, badName, keys, problems) {
  const allowed = `${keys.slice(0, -1).join(", ")} or ${keys.at(-1)}`;
  for (const [name, value] of Object.entries(mapping)) {
    const path = `${prefix}${name}`;
    if (!pattern.test(name)) problems.add(path, badName);
    if (!isObject(value)) {
      problems.add(path, `must be a mapping {${keys.join(", ")}}`);
      continue;
    }
    for (const key of Object.keys(value)) {
      if (!keys.includes(key)) problems.add(`${path}.${key}`, `is not ${allowed}`);
    }
    yield [name, value, path];
  }
}
function metrics(raw, problems) {
  const v = raw.metrics;
  if (v === void 0 || v === null) return void 0;
  if (!isObject(v)) {
    problems.add("metrics", "must be a mapping of metric names to {unit, better, description}");
    return void 0;
  }
  const out = {};
  const badName = "is not a valid metric name (letters, digits, '_', '.', ':', '-')";
  for (const [name, meaning, path] of namedMappings(v, "metrics.", METRIC_NAME, badName, ["unit", "better", "description"], problems)) {
    const unit = requiredString(meaning, "unit", `${path}.`, problems);
    const better = meaning.better;
    if (!BETTER.includes(better)) problems.add(`${path}.better`, `must be one of: ${BETTER.join(", ")}`);
    const description = optionalString(meaning, "description", `${path}.`, problems, "");
    out[name] = { unit, better, ...description ? { description } : {} };
  }
  return out;
}
function roles(raw, path, problems) {
  const v = raw.roles;
  if (v === void 0 || v === null) return void 0;
  if (!isObject(v) || Object.keys(v).length === 0) {
    problems.add(`${path}roles`, "must be a non-empty mapping of role names to {count, serves, description}");
    return void 0;
  }
  const out = {};
  const badName = "is not a valid role name (lower-case letters, digits and '_', starting with a letter)";
  for (const [name, role, at] of namedMappings(v, `${path}roles.`, ROLE_NAME, badName, ["count", "serves", "description"], problems)) {
    const count = role.count ?? 1;
    if (typeof count !== "number" || !Number.isInteger(count) || count < 1 || count > MAX_ROLE_COUNT) {
      problems.add(`${at}.count`, `must be an integer from 1 to ${MAX_ROLE_COUNT}`);
    }
    const serves = role.serves ?? false;
    if (typeof serves !== "boolean") problems.add(`${at}.serves`, "must be true or false");
    const description = optionalString(role, "description", `${at}.`, problems, "");
    out[name] = { count, serves: serves === true, ...description ? { description } : {} };
  }
  if (Object.values(out).every((r) => r.serves))
    problems.add(`${path}roles`, "must have a role that does not serve: the run ends when those roles' scripts end");
  return out;
}
function checkRoleScripts(s, declared, path, problems) {
  for (const key of Object.keys(s)) {
    const role = key.split("@")[1];
    if (role === void 0) continue;
    if (!declared) problems.add(`${path}scripts.${key}`, "names a role, but the workload declares no roles");
    else if (!Object.hasOwn(declared, role))
      problems.add(`${path}scripts.${key}`, `names role '${role}', which is not declared (roles: ${Object.keys(declared).join(", ")})`);
  }
}
function workload(raw, path, problems, toolParams, toolRoles) {
  if (!isObject(raw)) {
    problems.add(path.replace(/\.$/, ""), "must be a mapping");
    return void 0;
  }
  const wid = id(raw, path, problems);
  const categories = raw.categories ?? [];
  if (!Array.isArray(categories) || categories.some((c) => typeof c !== "string")) {
    problems.add(`${path}categories`, "must be a list of strings");
  }
  const s = scripts(raw, path, WORKLOAD_SCRIPT_KEY, problems);
  const declaredRoles = roles(raw, path, problems) ?? toolRoles;
  checkRoleScripts(s, declaredRoles, path, problems);
  const runs = Object.keys(s).filter((k) => /^run(_|@|$)/.test(k));
  const roleNames = declaredRoles ? Object.keys(declaredRoles) : [];
  if (!runs.some((k) => !k.includes("@"))) {
    const without = roleNames.filter((r) => !runs.some((k) => k.endsWith(`@${r}`)));
    if (roleNames.length === 0 || without.length > 0)
      problems.add(`${path}scripts.run`, roleNames.length ? `is missing for role ${without.join(", ")}` : "is missing");
  }
  const t = timeout(raw, path, problems);
  const own = paramDeclarations(raw.params, `${path}params`, (p, m) => problems.add(p, m), toolParams.raw);
  const def = {
    id: wid,
    workload_name: optionalString(raw, "workload_name", path, problems, wid),
    workload_description: optionalString(raw, "workload_description", path, problems, ""),
    categories: Array.isArray(categories) ? categories.filter((c) => typeof c === "string") : [],
    scripts: s,
    params: { ...toolParams.declared, ...own.declared },
    ...declaredRoles ? { roles: declaredRoles } : {}
  };
  if (t && (t.prepare !== void 0 || t.run !== void 0)) {
    def.timeout = {};
    if (t.prepare !== void 0) def.timeout.prepare = t.prepare;
    if (t.run !== void 0) def.timeout.run = t.run;
  }
  return def;
}
function parseDefinition(text, file, parserNames) {
  let raw;
  try {
    raw = parseYaml(text, { prettyErrors: true });
  } catch (e) {
    throw new CatalogError("invalid_definition", `${file}: not valid YAML: ${e.message}`, { file });
  }
  if (!isObject(raw)) {
    throw new CatalogError("invalid_definition", `${file}: a definition must be a YAML mapping`, { file });
  }
  const problems = new Problems();
  const toolId = id(raw, "", problems);
  const toolName = requiredString(raw, "tool_name", "", problems);
  const parser = requiredString(raw, "parser", "", problems);
  if (parser && !parserNames.includes(parser)) {
    problems.add("parser", `unknown parser '${parser}' (known: ${parserNames.join(", ")})`);
  }
  const t = timeout(raw, "", problems);
  const toolScripts = scripts(raw, "", TOOL_SCRIPT_KEY, problems);
  const aliases = raw.aliases ?? [];
  if (!Array.isArray(aliases) || aliases.some((a) => typeof a !== "string" || !ID_PATTERN.test(a) || a === toolId)) {
    problems.add("aliases", "must be a list of valid ids, other than the tool's own");
  }
  const meanings = metrics(raw, problems);
  const toolParams = paramDeclarations(raw.params, "params", (p, m) => problems.add(p, m));
  const toolRoles = roles(raw, "", problems);
  const workloads = [];
  if (!Array.isArray(raw.workloads) || raw.workloads.length === 0) {
    problems.add("workloads", raw.workloads === void 0 ? "is missing" : "must be a non-empty list");
  } else {
    const seen = /* @__PURE__ */ new Set();
    raw.workloads.forEach((w, i) => {
      const def = workload(w, `workloads[${i}].`, problems, toolParams, toolRoles);
      if (!def) return;
      if (def.id && seen.has(def.id)) problems.add(`workloads[${i}].id`, `duplicate workload id '${def.id}'`);
      seen.add(def.id);
      workloads.push(def);
    });
  }
  if (problems.list.length > 0) {
    throw new CatalogError("invalid_definition", `${file}: invalid definition:
  ${problems.list.join("\n  ")}`, {
      file
    });
  }
  return {
    id: toolId,
    tool_name: toolName,
    description: optionalString(raw, "description", "", problems, ""),
    parser,
    timeout: {
      prepare: t?.prepare ?? DEFAULT_TIMEOUT.prepare,
      run: t?.run ?? DEFAULT_TIMEOUT.run
    },
    scripts: toolScripts,
    workloads,
    ...meanings ? { metrics: meanings } : {},
    ...Array.isArray(aliases) && aliases.length ? { aliases } : {},
    source: file
  };
}
export {
  parseDefinition
};
//# sourceMappingURL=definition.js.map
