import { CatalogError, type DefinitionProblem } from "./errors.js";
import { paramDeclarations } from "./params.js";
import { parseYaml } from "./yaml-parse.js";
import type { MetricMeaning, RoleDefinition, ToolDefinition, WorkloadDefinition } from "./types.js";

const ID_PATTERN = /^[a-z0-9][a-z0-9_.-]*$/i;

/** Used when a (user-dropped) definition gives no timeout: enough for an apt install. */
const DEFAULT_TIMEOUT = { prepare: 900, run: 600 };

// A typo such as `instal_debian` would otherwise be silently ignored and never run.
const TOOL_SCRIPT_KEY = /^(check|lib|(install|version)(_[a-z0-9]+)*)$/;
const WORKLOAD_SCRIPT_KEY = /^(prepare|run)(_[a-z0-9]+)*(@[a-z][a-z0-9_]*)?$/;
const ROLE_NAME = /^[a-z][a-z0-9_]*$/;
const MAX_ROLE_COUNT = 16;

type Raw = Record<string, unknown>;

function isObject(v: unknown): v is Raw {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Collects the problems of one file so that its author sees them all at once. */
class Problems {
  readonly entries: DefinitionProblem[] = [];
  add(path: string, message: string): void {
    this.entries.push({ path, message });
  }
  get list(): string[] {
    return this.entries.map((p) => `${p.path}: ${p.message}`);
  }
}

function requiredString(raw: Raw, key: string, path: string, problems: Problems): string {
  const v = raw[key];
  if (typeof v === "string" && v.trim() !== "") return v;
  problems.add(`${path}${key}`, v === undefined ? "is missing" : "must be a non-empty string");
  return "";
}

function optionalString(raw: Raw, key: string, path: string, problems: Problems, fallback: string): string {
  const v = raw[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v === "string") return v;
  problems.add(`${path}${key}`, "must be a string");
  return fallback;
}

function id(raw: Raw, path: string, problems: Problems): string {
  const v = requiredString(raw, "id", path, problems);
  if (v && !ID_PATTERN.test(v)) {
    problems.add(`${path}id`, `'${v}' is not a valid id (letters, digits, '_', '.', '-'; starting with a letter or digit)`);
  }
  return v;
}

function scripts(raw: Raw, path: string, keyPattern: RegExp, problems: Problems): Record<string, string> {
  const v = raw.scripts;
  if (v === undefined || v === null) return {};
  if (!isObject(v)) {
    problems.add(`${path}scripts`, "must be a mapping of script names to bash scripts");
    return {};
  }
  const out: Record<string, string> = {};
  for (const [key, script] of Object.entries(v)) {
    if (!keyPattern.test(key)) problems.add(`${path}scripts.${key}`, "is not a known script name");
    else if (typeof script !== "string") problems.add(`${path}scripts.${key}`, "must be a string");
    else out[key] = script;
  }
  return out;
}

function seconds(v: unknown, path: string, problems: Problems): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === "number" && Number.isFinite(v) && v > 0) return v;
  problems.add(path, "must be a positive number of seconds");
  return undefined;
}

function timeout(raw: Raw, path: string, problems: Problems): { prepare?: number; run?: number } | undefined {
  const v = raw.timeout;
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) {
    problems.add(`${path}timeout`, "must be a mapping {prepare, run} in seconds");
    return undefined;
  }
  for (const key of Object.keys(v)) {
    if (key !== "prepare" && key !== "run") problems.add(`${path}timeout.${key}`, "is not prepare or run");
  }
  return {
    prepare: seconds(v.prepare, `${path}timeout.prepare`, problems),
    run: seconds(v.run, `${path}timeout.run`, problems),
  };
}

const METRIC_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]*$/;
const BETTER = ["higher", "lower"] as const;

/**
 * The entries of a mapping of named mappings (`metrics`, `roles`) whose value is a mapping,
 * each with its path (`prefix` and its name); a name `pattern` refuses, a value that is not a
 * mapping, and a key not among `keys` are problems.
 */
function* namedMappings(
  mapping: Raw,
  prefix: string,
  pattern: RegExp,
  badName: string,
  keys: string[],
  problems: Problems,
): Generator<[name: string, value: Raw, path: string]> {
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

/** `metrics: {<name>: {unit, better, description}}`: what each figure of the tool means. */
function metrics(raw: Raw, problems: Problems): Record<string, MetricMeaning> | undefined {
  const v = raw.metrics;
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) {
    problems.add("metrics", "must be a mapping of metric names to {unit, better, description}");
    return undefined;
  }
  const out: Record<string, MetricMeaning> = {};
  const badName = "is not a valid metric name (letters, digits, '_', '.', ':', '-')";
  for (const [name, meaning, path] of namedMappings(v, "metrics.", METRIC_NAME, badName, ["unit", "better", "description"], problems)) {
    const unit = requiredString(meaning, "unit", `${path}.`, problems);
    const better = meaning.better;
    if (!BETTER.includes(better as MetricMeaning["better"])) problems.add(`${path}.better`, `must be one of: ${BETTER.join(", ")}`);
    const description = optionalString(meaning, "description", `${path}.`, problems, "");
    out[name] = { unit, better: better as MetricMeaning["better"], ...(description ? { description } : {}) };
  }
  return out;
}

/**
 * `roles: {<name>: {count, serves, description}}`, in the order machines go to them. A role
 * name becomes part of environment names (BW_ROLE_<NAME>_HOST), hence lower-case identifiers.
 */
function roles(raw: Raw, path: string, problems: Problems): Record<string, RoleDefinition> | undefined {
  const v = raw.roles;
  if (v === undefined || v === null) return undefined;
  if (!isObject(v) || Object.keys(v).length === 0) {
    problems.add(`${path}roles`, "must be a non-empty mapping of role names to {count, serves, description}");
    return undefined;
  }
  const out: Record<string, RoleDefinition> = {};
  const badName = "is not a valid role name (lower-case letters, digits and '_', starting with a letter)";
  for (const [name, role, at] of namedMappings(v, `${path}roles.`, ROLE_NAME, badName, ["count", "serves", "description"], problems)) {
    const count = role.count ?? 1;
    if (typeof count !== "number" || !Number.isInteger(count) || count < 1 || count > MAX_ROLE_COUNT) {
      problems.add(`${at}.count`, `must be an integer from 1 to ${MAX_ROLE_COUNT}`);
    }
    const serves = role.serves ?? false;
    if (typeof serves !== "boolean") problems.add(`${at}.serves`, "must be true or false");
    const description = optionalString(role, "description", `${at}.`, problems, "");
    out[name] = { count: count as number, serves: serves === true, ...(description ? { description } : {}) };
  }
  if (Object.values(out).every((r) => r.serves))
    problems.add(`${path}roles`, "must have a role that does not serve: the run ends when those roles' scripts end");
  return out;
}

/** Each `<step>@<role>` script must name a declared role. */
function checkRoleScripts(s: Record<string, string>, declared: Record<string, RoleDefinition> | undefined, path: string, problems: Problems): void {
  for (const key of Object.keys(s)) {
    const role = key.split("@")[1];
    if (role === undefined) continue;
    if (!declared) problems.add(`${path}scripts.${key}`, "names a role, but the workload declares no roles");
    else if (!Object.hasOwn(declared, role))
      problems.add(`${path}scripts.${key}`, `names role '${role}', which is not declared (roles: ${Object.keys(declared).join(", ")})`);
  }
}

function workload(
  raw: unknown,
  path: string,
  problems: Problems,
  toolParams: ReturnType<typeof paramDeclarations>,
  toolRoles: Record<string, RoleDefinition> | undefined,
): WorkloadDefinition | undefined {
  if (!isObject(raw)) {
    problems.add(path.replace(/\.$/, ""), "must be a mapping");
    return undefined;
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
  // Every role needs a run script: its own or the shared one.
  if (!runs.some((k) => !k.includes("@"))) {
    const without = roleNames.filter((r) => !runs.some((k) => k.endsWith(`@${r}`)));
    if (roleNames.length === 0 || without.length > 0)
      problems.add(`${path}scripts.run`, roleNames.length ? `is missing for role ${without.join(", ")}` : "is missing");
  }
  const t = timeout(raw, path, problems);
  const own = paramDeclarations(raw.params, `${path}params`, (p, m) => problems.add(p, m), toolParams.raw);
  const def: WorkloadDefinition = {
    id: wid,
    workload_name: optionalString(raw, "workload_name", path, problems, wid),
    workload_description: optionalString(raw, "workload_description", path, problems, ""),
    categories: Array.isArray(categories) ? categories.filter((c): c is string => typeof c === "string") : [],
    scripts: s,
    params: { ...toolParams.declared, ...own.declared },
    ...(declaredRoles ? { roles: declaredRoles } : {}),
  };
  if (t && (t.prepare !== undefined || t.run !== undefined)) {
    def.timeout = {};
    if (t.prepare !== undefined) def.timeout.prepare = t.prepare;
    if (t.run !== undefined) def.timeout.run = t.run;
  }
  return def;
}

/**
 * Reads one definition file's text into a ToolDefinition, or throws a CatalogError whose
 * message names the file and lists every problem found.
 */
export function parseDefinition(text: string, file: string, parserNames: readonly string[]): ToolDefinition {
  let raw: unknown;
  try {
    raw = parseYaml(text, { prettyErrors: true });
  } catch (e) {
    const message = `not valid YAML: ${(e as Error).message}`;
    throw new CatalogError("invalid_definition", `${file}: ${message}`, { file, problems: [{ path: "", message }] });
  }
  return definitionOf(raw, file, parserNames);
}

/**
 * A definition already read (from YAML, a JSON body, or the built-ins' YAML parsed at build time) into a ToolDefinition, or a CatalogError
 * listing every problem (`problems`, each at its place). `file` names where it came from.
 */
export function definitionOf(raw: unknown, file: string, parserNames: readonly string[]): ToolDefinition {
  if (!isObject(raw)) {
    const message = "a definition must be a YAML mapping";
    throw new CatalogError("invalid_definition", `${file}: ${message}`, { file, problems: [{ path: "", message }] });
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
  const workloads: WorkloadDefinition[] = [];
  if (!Array.isArray(raw.workloads) || raw.workloads.length === 0) {
    problems.add("workloads", raw.workloads === undefined ? "is missing" : "must be a non-empty list");
  } else {
    const seen = new Set<string>();
    raw.workloads.forEach((w, i) => {
      const def = workload(w, `workloads[${i}].`, problems, toolParams, toolRoles);
      if (!def) return;
      if (def.id && seen.has(def.id)) problems.add(`workloads[${i}].id`, `duplicate workload id '${def.id}'`);
      seen.add(def.id);
      workloads.push(def);
    });
  }

  if (problems.list.length > 0) {
    throw new CatalogError("invalid_definition", `${file}: invalid definition:\n  ${problems.list.join("\n  ")}`, {
      file,
      problems: problems.entries,
    });
  }
  return {
    id: toolId,
    tool_name: toolName,
    description: optionalString(raw, "description", "", problems, ""),
    parser,
    timeout: {
      prepare: t?.prepare ?? DEFAULT_TIMEOUT.prepare,
      run: t?.run ?? DEFAULT_TIMEOUT.run,
    },
    scripts: toolScripts,
    workloads,
    ...(meanings ? { metrics: meanings } : {}),
    ...(Array.isArray(aliases) && aliases.length ? { aliases: aliases as string[] } : {}),
    source: file,
  };
}
