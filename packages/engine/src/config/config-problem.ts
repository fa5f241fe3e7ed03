import type { ProblemCode } from "@benchwright/contract";
import { BenchwrightError, type ProblemExtras } from "../errors.js";
import { isCredentialKey } from "../secrets/scrub.js";

/** Where in a configuration: its section, then keys and list indexes (`["vms", "hosts", 1, "port"]`). */
export type FieldPath = ReadonlyArray<string | number>;

/** One thing wrong with a provider configuration: the field, what is wrong with it, what it may be. */
export interface ConfigProblem {
  at: FieldPath;
  wrong: string;
  allowed: string;
}

export function problem(at: FieldPath, wrong: string, allowed: string): ConfigProblem {
  return { at, wrong, allowed };
}

/** As a problem document lists a failing field: `{path: "/config/vms/port", message: "is 70000: must be an integer from 1 to 65535"}`. */
function problemEntry(p: ConfigProblem): { path: string; message: string } {
  return { path: ["/config", ...p.at].join("/"), message: `${p.wrong}: ${p.allowed}` };
}

/** `vms.hosts[1].port`, as a person reads the field in a detail line. */
function dotted(at: FieldPath): string {
  if (at.length === 0) return "config";
  return at.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");
}

/**
 * The one refusal of a provider configuration: `lead`, then every problem at once, in the
 * detail for people and in `errors` for programs. Its code stays the one the catalogue has
 * for the kind of mistake (an unknown class is not an invalid value).
 */
export function configError(
  lead: string,
  problems: readonly ConfigProblem[],
  code: ProblemCode = "invalid_configuration",
  extras: ProblemExtras = {},
): BenchwrightError {
  const lines = problems.map((p) => `${dotted(p.at)} ${p.wrong}: ${p.allowed}`);
  return new BenchwrightError(code, `${lead}: ${lines.join("; ")}`, { ...extras, errors: problems.map(problemEntry) });
}

/**
 * What is wrong with a value, said without ever repeating a credential: missing, of the wrong
 * type, or (for any other field, and short) the value itself, which helps find a typo.
 */
export function describeValue(key: string | number, value: unknown): string {
  if (value === undefined || value === null) return "is missing";
  if (typeof value === "string" && value.trim() === "") return "is empty";
  if (Array.isArray(value)) return "is a list";
  if (typeof value === "object") return "is a mapping";
  const text = String(value);
  const echo = (typeof key !== "string" || !isCredentialKey(key)) && text.length <= 40 && !/PRIVATE KEY|[\r\n]/.test(text);
  if (!echo) return `is a ${typeof value} that is not allowed here`;
  return `is ${typeof value === "string" ? `'${text}'` : text}`;
}
