import { BenchwrightError } from "@benchwright/engine";

/** A parsed X-Fields mask: `true` keeps a field whole, a nested mask keeps part of it. */
export type FieldsMask = { all: boolean; fields: Map<string, FieldsMask | true> };

/**
 * Parses the flask-restplus mask syntax: `id,provider{id,type}`, `*`, `executions{id,state}`,
 * optionally wrapped in one pair of braces. Anything else is a 400 that says where it broke.
 * Nesting is bounded: no answer is that deep, and a header of `a{a{a{…` would otherwise run the
 * parser out of stack (a 500) well below Node's 16 KiB for the headers.
 */
export function parseFieldsMask(text: string): FieldsMask {
  let source = text.trim();
  if (source.startsWith("{") && source.endsWith("}") && balanced(source.slice(1, -1))) source = source.slice(1, -1);
  const tokens = source.match(/[{},]|[^{},\s]+|\s+/g)?.filter((t) => !/^\s+$/.test(t)) ?? [];
  let i = 0;
  const fail = (why: string): never => {
    throw new BenchwrightError("bad_fields_mask", `X-Fields mask '${text}' is malformed: ${why}`);
  };
  const parseList = (depth: number): FieldsMask => {
    const nested = depth > 0;
    if (depth > MAX_DEPTH) fail(`it nests deeper than ${MAX_DEPTH} levels`);
    const mask: FieldsMask = { all: false, fields: new Map() };
    for (;;) {
      const name = tokens[i++];
      if (name === undefined) return fail(nested ? "a '{' is never closed" : "a field name is missing");
      if (name === "*") mask.all = true;
      else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
        if (tokens[i] === "{") {
          i++;
          mask.fields.set(name, parseList(depth + 1));
        } else mask.fields.set(name, true);
      } else fail(`'${name}' is not a field name`);
      const sep = tokens[i++];
      if (sep === ",") continue;
      if (sep === "}") return nested ? mask : fail("a '}' has no '{'");
      if (sep === undefined) return nested ? fail("a '{' is never closed") : mask;
      fail(`'${sep}' cannot follow a field name`);
    }
  };
  if (tokens.length === 0) fail("it is empty");
  return parseList(0);
}

const MAX_DEPTH = 16;

function balanced(s: string): boolean {
  let depth = 0;
  for (const c of s) {
    depth += c === "{" ? 1 : c === "}" ? -1 : 0;
    if (depth < 0) return false;
  }
  return depth === 0;
}

/** Keeps the masked fields of an object, of each element of a list; fields absent from the value stay absent. */
export function applyFieldsMask(value: unknown, mask: FieldsMask): unknown {
  if (Array.isArray(value)) return value.map((v) => applyFieldsMask(v, mask));
  if (!value || typeof value !== "object") return value;
  if (mask.all && mask.fields.size === 0) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const sub = mask.fields.get(key);
    if (sub === true) out[key] = v;
    else if (sub) out[key] = applyFieldsMask(v, sub);
    else if (mask.all) out[key] = v;
  }
  return out;
}
