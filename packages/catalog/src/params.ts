import type { ParamDeclaration, ParamProblem, ParamType, ParamValue } from "./types.js";

/** lower_snake_case: the name becomes `BW_PARAM_<NAME>` by upper-casing alone, so two names never meet in one variable. */
const PARAM_NAME = /^[a-z][a-z0-9_]{0,62}$/;
const PARAM_TYPES: readonly ParamType[] = ["integer", "number", "string", "boolean"];
/** Longest string value: it travels in the step's env.sh, and a limit keeps that small. */
export const MAX_STRING_PARAM = 1024;

const KEYS = ["type", "default", "min", "max", "enum", "pattern", "description", "unit"];

type Raw = Record<string, unknown>;
type Report = (path: string, message: string) => void;

function isObject(v: unknown): v is Raw {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Why `value` does not fit `decl`, or undefined when it does. */
function paramValueProblem(decl: ParamDeclaration, value: unknown): string | undefined {
  switch (decl.type) {
    case "integer":
      if (typeof value !== "number" || !Number.isSafeInteger(value)) return "must be an integer";
      break;
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) return "must be a number";
      break;
    case "boolean":
      return typeof value === "boolean" ? undefined : "must be a boolean";
    case "string":
      if (typeof value !== "string") return "must be a string";
      if (value.length > MAX_STRING_PARAM) return `must be at most ${MAX_STRING_PARAM} characters`;
      // A NUL cannot be put in an environment variable.
      if (value.includes("\0")) return "must not contain a NUL character";
      if (decl.enum && !decl.enum.includes(value)) return `must be one of: ${decl.enum.join(", ")}`;
      if (decl.pattern !== undefined && !new RegExp(decl.pattern, "u").test(value)) return `must match ${decl.pattern}`;
      return undefined;
  }
  const n = value as number;
  if (decl.min !== undefined && n < decl.min) return `must be at least ${decl.min}`;
  if (decl.max !== undefined && n > decl.max) return `must be at most ${decl.max}`;
  return undefined;
}

/** One declaration, `raw` being the workload's fields over those the tool declares under the same name. */
function declaration(raw: unknown, path: string, report: Report): ParamDeclaration | undefined {
  if (!isObject(raw)) {
    report(path, "must be a mapping {type, default, min, max, enum, pattern, description, unit}");
    return undefined;
  }
  let problems = 0;
  const add: Report = (p, m) => {
    problems++;
    report(p, m);
  };
  for (const key of Object.keys(raw)) if (!KEYS.includes(key)) add(`${path}.${key}`, `is not one of ${KEYS.join(", ")}`);
  const type = raw.type as ParamType;
  if (!PARAM_TYPES.includes(type)) {
    add(`${path}.type`, `must be one of: ${PARAM_TYPES.join(", ")}`);
    return undefined;
  }
  const numeric = type === "integer" || type === "number";
  const decl: ParamDeclaration = { type, default: raw.default as ParamValue };
  for (const bound of ["min", "max"] as const) {
    const v = raw[bound];
    if (v === undefined || v === null) continue;
    if (!numeric) add(`${path}.${bound}`, `is only for integer and number parameters`);
    else if (typeof v !== "number" || !Number.isFinite(v) || (type === "integer" && !Number.isSafeInteger(v)))
      add(`${path}.${bound}`, `must be ${type === "integer" ? "an integer" : "a number"}`);
    else decl[bound] = v;
  }
  if (decl.min !== undefined && decl.max !== undefined && decl.min > decl.max) add(`${path}.min`, `is above max (${decl.max})`);
  if (raw.enum !== undefined && raw.enum !== null) {
    if (type !== "string") add(`${path}.enum`, "is only for string parameters");
    else if (!Array.isArray(raw.enum) || raw.enum.length === 0 || raw.enum.some((e) => typeof e !== "string"))
      add(`${path}.enum`, "must be a non-empty list of strings");
    else decl.enum = raw.enum as string[];
  }
  if (raw.pattern !== undefined && raw.pattern !== null) {
    if (type !== "string") add(`${path}.pattern`, "is only for string parameters");
    else if (typeof raw.pattern !== "string") add(`${path}.pattern`, "must be a regular expression, as a string");
    else {
      try {
        new RegExp(raw.pattern, "u");
        decl.pattern = raw.pattern;
      } catch (e) {
        add(`${path}.pattern`, `is not a valid regular expression: ${(e as Error).message}`);
      }
    }
  }
  for (const key of ["description", "unit"] as const) {
    const v = raw[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== "string") add(`${path}.${key}`, "must be a string");
    else if (v !== "") decl[key] = v;
  }
  // Defaults are always set, so scripts read them unconditionally: one that does not fit would fail every run.
  if (raw.default === undefined || raw.default === null) add(`${path}.default`, "is missing");
  else if (problems === 0) {
    const problem = paramValueProblem(decl, raw.default);
    if (problem) add(`${path}.default`, problem);
  }
  return problems === 0 ? decl : undefined;
}

/**
 * `params:` of a tool or a workload: name -> declaration. A workload's entry for a name the
 * tool declares is merged over the tool's (so `{default: 10}` alone changes the default).
 * Problems go to `report`; only sound declarations are returned.
 */
export function paramDeclarations(
  raw: unknown,
  path: string,
  report: Report,
  inherited: Record<string, Raw> = {},
): { declared: Record<string, ParamDeclaration>; raw: Record<string, Raw> } {
  const declared: Record<string, ParamDeclaration> = {};
  const merged: Record<string, Raw> = {};
  if (raw !== undefined && raw !== null && !isObject(raw)) {
    report(path, "must be a mapping of parameter names to {type, default, ...}");
    return { declared, raw: merged };
  }
  for (const [name, entry] of Object.entries(raw ?? {})) {
    if (!PARAM_NAME.test(name)) {
      report(`${path}.${name}`, "is not a valid parameter name (lower_snake_case: a-z, 0-9, '_', starting with a letter)");
      continue;
    }
    const whole = Object.hasOwn(inherited, name) && isObject(entry) ? { ...inherited[name], ...entry } : entry;
    const decl = declaration(whole, `${path}.${name}`, report);
    if (decl) {
      declared[name] = decl;
      merged[name] = whole as Raw;
    }
  }
  return { declared, raw: merged };
}

/**
 * The values a run uses: the ones given, checked against the declarations, over the defaults.
 * Every problem is listed, so that a client fixes its request at once.
 */
export function resolveParams(
  declared: Record<string, ParamDeclaration>,
  given: Record<string, unknown> = {},
): { values: Record<string, ParamValue>; problems: ParamProblem[] } {
  const problems: ParamProblem[] = [];
  const values: Record<string, ParamValue> = {};
  for (const [name, decl] of Object.entries(declared)) values[name] = decl.default;
  for (const [name, value] of Object.entries(given)) {
    const decl = Object.hasOwn(declared, name) ? declared[name] : undefined;
    if (!decl) {
      const names = Object.keys(declared);
      problems.push({
        name,
        message: names.length ? `is not a parameter of this workload (it has: ${names.join(", ")})` : "is not a parameter: this workload has none",
      });
      continue;
    }
    const problem = paramValueProblem(decl, value);
    if (problem) problems.push({ name, message: problem });
    else values[name] = value as ParamValue;
  }
  return { values, problems };
}

/**
 * The environment that carries parameter values to a step's scripts: `BW_PARAM_<NAME>`, the
 * value as text (booleans `true`/`false`). The runner writes it quoted into env.sh, which is
 * sourced, so a value is data to the shell, never code.
 */
export function paramEnv(values: Record<string, ParamValue>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([name, v]) => [`BW_PARAM_${name.toUpperCase()}`, String(v)]));
}
