const PARAM_NAME = /^[a-z][a-z0-9_]{0,62}$/;
const PARAM_TYPES = ["integer", "number", "string", "boolean"];
const MAX_STRING_PARAM = 1024;
const KEYS = ["type", "default", "min", "max", "enum", "pattern", "description", "unit"];
function isObject(v) {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
function paramValueProblem(decl, value) {
  switch (decl.type) {
    case "integer":
      if (typeof value !== "number" || !Number.isSafeInteger(value)) return "must be an integer";
      break;
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) return "must be a number";
      break;
    case "boolean":
      return typeof value === "boolean" ? void 0 : "must be a boolean";
    case "string":
      if (typeof value !== "string") return "must be a string";
      if (value.length > MAX_STRING_PARAM) return `must be at most ${MAX_STRING_PARAM} characters`;
      if (value.includes("\0")) return "must not contain a NUL character";
      if (decl.enum && !decl.enum.includes(value)) return `must be one of: ${decl.enum.join(", ")}`;
      if (decl.pattern !== void 0 && !new RegExp(decl.pattern, "u").test(value)) return `must match ${decl.pattern}`;
      return void 0;
  }
  const n = value;
  if (decl.min !== void 0 && n < decl.min) return `must be at least ${decl.min}`;
  if (decl.max !== void 0 && n > decl.max) return `must be at most ${decl.max}`;
  return void 0;
}
function declaration(raw, path, report) {
  if (!isObject(raw)) {
    report(path, "must be a mapping {type, default, min, max, enum, pattern, description, unit}");
    return void 0;
  }
  let problems = 0;
  const add = (p, m) => {
    problems++;
    report(p, m);
  };
  for (const key of Object.keys(raw)) if (!KEYS.includes(key)) add(`${path}.${key}`, `is not one of ${KEYS.join(", ")}`);
  const type = raw.type;
  if (!PARAM_TYPES.includes(type)) {
    add(`${path}.type`, `must be one of: ${PARAM_TYPES.join(", ")}`);
    return void 0;
  }
  const numeric = type === "integer" || type === "number";
  const decl = { type, default: raw.default };
  for (const bound of ["min", "max"]) {
    const v = raw[bound];
    if (v === void 0 || v === null) continue;
    if (!numeric) add(`${path}.${bound}`, `is only for integer and number parameters`);
    else if (typeof v !== "number" || !Number.isFinite(v) || type === "integer" && !Number.isSafeInteger(v))
      add(`${path}.${bound}`, `must be ${type === "integer" ? "an integer" : "a number"}`);
    else decl[bound] = v;
  }
  if (decl.min !== void 0 && decl.max !== void 0 && decl.min > decl.max) add(`${path}.min`, `is above max (${decl.max})`);
  if (raw.enum !== void 0 && raw.enum !== null) {
    if (type !== "string") add(`${path}.enum`, "is only for string parameters");
    else if (!Array.isArray(raw.enum) || raw.enum.length === 0 || raw.enum.some((e) => typeof e !== "string"))
      add(`${path}.enum`, "must be a non-empty list of strings");
    else decl.enum = raw.enum;
  }
  if (raw.pattern !== void 0 && raw.pattern !== null) {
    if (type !== "string") add(`${path}.pattern`, "is only for string parameters");
    else if (typeof raw.pattern !== "string") add(`${path}.pattern`, "must be a regular expression, as a string");
    else {
      try {
        new RegExp(raw.pattern, "u");
        decl.pattern = raw.pattern;
      } catch (e) {
        add(`${path}.pattern`, `is not a valid regular expression: ${e.message}`);
      }
    }
  }
  for (const key of ["description", "unit"]) {
    const v = raw[key];
    if (v === void 0 || v === null) continue;
    if (typeof v !== "string") add(`${path}.${key}`, "must be a string");
    else if (v !== "") decl[key] = v;
  }
  if (raw.default === void 0 || raw.default === null) add(`${path}.default`, "is missing");
  else if (problems === 0) {
    const problem = paramValueProblem(decl, raw.default);
    if (problem) add(`${path}.default`, problem);
  }
  return problems === 0 ? decl : void 0;
}
function paramDeclarations(raw, path, report, inherited = {}) {
  const declared = {};
  const merged = {};
  if (raw !== void 0 && raw !== null && !isObject(raw)) {
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
      merged[name] = whole;
    }
  }
  return { declared, raw: merged };
}
function resolveParams(declared, given = {}) {
  const problems = [];
  const values = {};
  for (const [name, decl] of Object.entries(declared)) values[name] = decl.default;
  for (const [name, value] of Object.entries(given)) {
    const decl = Object.hasOwn(declared, name) ? declared[name] : void 0;
    if (!decl) {
      const names = Object.keys(declared);
      problems.push({
        name,
        message: names.length ? `is not a parameter of this workload (it has: ${names.join(", ")})` : "is not a parameter: this workload has none"
      });
      continue;
    }
    const problem = paramValueProblem(decl, value);
    if (problem) problems.push({ name, message: problem });
    else values[name] = value;
  }
  return { values, problems };
}
function paramEnv(values) {
  return Object.fromEntries(Object.entries(values).map(([name, v]) => [`BW_PARAM_${name.toUpperCase()}`, String(v)]));
}
export {
  MAX_STRING_PARAM,
  paramDeclarations,
  paramEnv,
  resolveParams
};
//# sourceMappingURL=params.js.map
