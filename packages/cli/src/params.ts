import { UsageError } from "./exit-codes.js";

export type ParamValue = string | number | boolean;

/** What the server says of a workload's parameters (`params` of the workload in `/benchmarks/{id}`): each one's type. */
export type ParamTypes = ReadonlyArray<{ name: string; type: string }>;

/** `--param name=value`, each as given: the value is text until its declared type is known. */
export function parseParamArgs(args: readonly string[]): Record<string, string> {
  const given: Record<string, string> = {};
  for (const arg of args) {
    const eq = arg.indexOf("=");
    if (eq <= 0) throw new UsageError(`--param takes name=value, not '${arg}'`);
    const name = arg.slice(0, eq);
    if (Object.hasOwn(given, name)) throw new UsageError(`--param ${name} is given twice`);
    given[name] = arg.slice(eq + 1);
  }
  return given;
}

/**
 * The values typed as the workload declares them (`threads=16` is the number 16 for an
 * integer parameter, the text "16" for a string one). A name the server does not declare,
 * or a server that declares none, gets a guess from the text, and the server has the last word.
 */
export function typeParams(given: Record<string, string>, declared: ParamTypes = []): Record<string, ParamValue> {
  const typed: Record<string, ParamValue> = {};
  for (const [name, text] of Object.entries(given)) {
    const type = declared.find((d) => d.name === name)?.type;
    typed[name] = type === "string" ? text : type === undefined ? guess(text) : convert(name, text, type);
  }
  return typed;
}

function convert(name: string, text: string, type: string): ParamValue {
  if (type === "boolean") {
    if (text === "true") return true;
    if (text === "false") return false;
    throw new UsageError(`--param ${name} is a boolean: true or false, not '${text}'`);
  }
  if (type === "integer" || type === "number") {
    const n = Number(text);
    if (text.trim() === "" || !Number.isFinite(n)) throw new UsageError(`--param ${name} is a number, not '${text}'`);
    return n;
  }
  return text;
}

function guess(text: string): ParamValue {
  if (text === "true" || text === "false") return text === "true";
  const n = Number(text);
  return text.trim() !== "" && Number.isFinite(n) ? n : text;
}
