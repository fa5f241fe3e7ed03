import type { components } from "@benchwright/contract";
import { describeValue, problem, type ConfigProblem, type FieldPath } from "./config-problem.js";

type Schemas = components["schemas"];

/** Keys of a provider section: the contract's, so that a key misspelt here does not compile. */
export type ProviderKey = keyof Schemas["ProviderSection"];
/** A stored configuration (written by the operator) may hold this too; the contract does not offer it to clients. */
type StoredOnlyServiceKey = "floating_ip_pool";
export type ServiceKey = keyof Schemas["ServiceSection"] | StoredOnlyServiceKey;
export type HostKey = keyof Schemas["HostEntry"];

const TRUE = ["true", "yes", "on", "1"];
const FALSE = ["false", "no", "off", "0"];

/**
 * Reads one section of a configuration as written (YAML, JSON, or INI, where every value is
 * text), each value as the type it means, and records what cannot be read as a problem at
 * its field rather than throwing: a configuration is refused with all its problems at once.
 */
export class ConfigSection<K extends string> {
  constructor(
    private readonly values: Readonly<Record<string, unknown>>,
    readonly at: FieldPath,
    private readonly problems: ConfigProblem[],
  ) {}

  /** A section within this one (an entry of `hosts`): its problems are this one's. */
  nested<N extends string>(values: Readonly<Record<string, unknown>>, at: FieldPath): ConfigSection<N> {
    return new ConfigSection<N>(values, [...this.at, ...at], this.problems);
  }

  raw(key: K): unknown {
    return this.values[key];
  }

  report(key: K | FieldPath, wrong: string, allowed: string): undefined {
    this.problems.push(problem(typeof key === "string" ? [...this.at, key] : key, wrong, allowed));
    return undefined;
  }

  /** Text with its outer blanks gone; absent when unset or blank. */
  text(key: K): string | undefined {
    const v = this.values[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v === "object") return this.report(key, describeValue(key, v), "must be a string");
    const text = String(v).trim();
    return text === "" ? undefined : text;
  }

  required(key: K, allowed = "must be a non-empty string"): string | undefined {
    const text = this.text(key);
    if (text === undefined && !(this.values[key] && typeof this.values[key] === "object")) this.report(key, describeValue(key, this.values[key]), allowed);
    return text;
  }

  /** A credential or a password exactly as given (blanks in it may be part of it); never blank. */
  secret(key: K): string | undefined {
    const v = this.values[key];
    if (v === undefined) return undefined;
    if (typeof v === "string" && v !== "") return v;
    return this.report(key, describeValue(key, v), "must be a non-empty string");
  }

  /** A number, or its text (INI files hold nothing else). */
  private number(key: K): number | undefined | "wrong" {
    const v = this.values[key];
    if (v === undefined || v === null || (typeof v === "string" && v.trim() === "")) return undefined;
    const n = typeof v === "number" ? v : typeof v === "string" && /^\s*[+-]?(\d+\.?\d*|\.\d+)\s*$/.test(v) ? Number(v) : NaN;
    return Number.isFinite(n) ? n : "wrong";
  }

  integer(key: K, min: number, max?: number): number | undefined {
    const n = this.number(key);
    if (n === undefined) return undefined;
    if (n !== "wrong" && Number.isInteger(n) && n >= min && (max === undefined || n <= max)) return n;
    return this.report(
      key,
      describeValue(key, this.values[key]),
      max === undefined ? `must be an integer of at least ${min}` : `must be an integer from ${min} to ${max}`,
    );
  }

  positive(key: K): number | undefined {
    const n = this.number(key);
    if (n === undefined) return undefined;
    if (n !== "wrong" && n > 0) return n;
    return this.report(key, describeValue(key, this.values[key]), "must be a positive number");
  }

  /** A number of at least 0 (a price): a negative one, or text that is not a number, is a problem. */
  nonNegative(key: K): number | undefined {
    const n = this.number(key);
    if (n === undefined) return undefined;
    if (n !== "wrong" && n >= 0) return n;
    return this.report(key, describeValue(key, this.values[key]), "must be a number of at least 0");
  }

  flag(key: K): boolean | undefined {
    const v = this.values[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v === "boolean") return v;
    const text = String(v).trim().toLowerCase();
    if (typeof v !== "object" && TRUE.includes(text)) return true;
    if (typeof v !== "object" && FALSE.includes(text)) return false;
    return this.report(key, describeValue(key, v), "must be true or false");
  }

  oneOf<C extends string>(key: K, choices: readonly C[]): C | undefined {
    const text = this.text(key);
    if (text === undefined && this.values[key] && typeof this.values[key] === "object") return undefined;
    const found = choices.find((c) => c === text?.toLowerCase());
    if (!found) this.report(key, describeValue(key, this.values[key]), `must be one of: ${choices.join(", ")}`);
    return found;
  }
}
