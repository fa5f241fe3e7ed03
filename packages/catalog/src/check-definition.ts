import { spawnSync } from "node:child_process";
import { definitionOf } from "./definition.js";
import { CatalogError } from "./errors.js";
import { parsers } from "./parsers/index.js";
import type { ToolDefinition } from "./types.js";

/** One problem of a definition at its JSON Pointer (RFC 6901) in the document: `/workloads/0/scripts/run`. */
export interface PointedProblem {
  pointer: string;
  message: string;
}

type Raw = Record<string, unknown>;

function isObject(v: unknown): v is Raw {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Checks a definition document (a file's YAML read, or an API body) as the catalog loads one,
 * and further: each script must be one `bash -n` accepts, since a script that does not parse
 * fails only on a machine, after the machines were made. Every problem at once, each at its
 * JSON Pointer; the definition when there is none.
 */
export function checkDefinition(
  document: unknown,
  source: string,
): { definition: ToolDefinition; problems: [] } | { definition?: undefined; problems: PointedProblem[] } {
  const problems: PointedProblem[] = [];
  let definition: ToolDefinition | undefined;
  try {
    definition = definitionOf(document, source, Object.keys(parsers));
  } catch (e) {
    if (!(e instanceof CatalogError) || !e.problems) throw e;
    problems.push(...e.problems.map((p) => ({ pointer: pointerOf(document, p.path), message: p.message })));
  }
  problems.push(...scriptSyntaxProblems(document));
  return definition && problems.length === 0 ? { definition, problems: [] } : { problems };
}

/** A stored definition, checked when it was written, read again (no script is run through bash). */
export function readDefinition(document: unknown, source: string): ToolDefinition {
  return definitionOf(document, source, Object.keys(parsers));
}

/** Every string script of the tool and its workloads that `bash -n` refuses, with what bash said. */
function scriptSyntaxProblems(document: unknown): PointedProblem[] {
  if (!isObject(document)) return [];
  const found: PointedProblem[] = [];
  const check = (scripts: unknown, at: string) => {
    if (!isObject(scripts)) return;
    for (const [key, script] of Object.entries(scripts)) {
      if (typeof script !== "string") continue;
      const r = spawnSync("bash", ["-n"], { input: script, encoding: "utf8" });
      if (r.status !== 0) {
        const said = (r.stderr || r.error?.message || "")
          .trim()
          .replace(/^bash: /gm, "")
          .split("\n")[0];
        found.push({ pointer: `${at}/scripts/${token(key)}`, message: `is not valid bash (bash -n: ${said})` });
      }
    }
  };
  check(document.scripts, "");
  if (Array.isArray(document.workloads)) {
    document.workloads.forEach((w, i) => {
      if (isObject(w)) check(w.scripts, `/workloads/${i}`);
    });
  }
  return found;
}

/**
 * The JSON Pointer of a problem's dotted place (`workloads[0].metrics.ops.sec.unit`), found by
 * walking the document: a key may hold dots itself (a metric's name), so at each level the
 * longest key of the document that the rest of the path starts with is the one meant.
 */
export function pointerOf(document: unknown, dotted: string): string {
  let node: unknown = document;
  let rest = dotted;
  let pointer = "";
  while (rest !== "") {
    const index = /^\[(\d+)\]\.?/.exec(rest);
    let key: string;
    if (index) {
      key = index[1]!;
      rest = rest.slice(index[0].length);
    } else {
      const keys = isObject(node) ? Object.keys(node).filter((k) => rest === k || rest.startsWith(`${k}.`) || rest.startsWith(`${k}[`)) : [];
      key = keys.sort((a, b) => b.length - a.length)[0] ?? /^[^.[]*/.exec(rest)![0];
      rest = rest.slice(key.length).replace(/^\./, "");
    }
    pointer += `/${token(key)}`;
    node = isObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[key] : undefined;
  }
  return pointer;
}

function token(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}
