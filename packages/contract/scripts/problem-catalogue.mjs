// The one catalogue of problems lives in the contract, as `x-problem-codes` on the
// ProblemCode schema: each code with its status and title. From it the bundle gets the
// schema's `enum`, and src/generated/problems.ts (engine statuses, server titles, the SDK's
// table) is written, so that no code, status or title is ever written twice.

/** Reads and checks the catalogue, fills ProblemCode's enum from it, and returns it. */
export function applyProblemCatalogue(spec) {
  const schema = spec.components?.schemas?.ProblemCode;
  const catalogue = schema?.["x-problem-codes"];
  if (!catalogue || typeof catalogue !== "object") throw new Error("components.schemas.ProblemCode has no x-problem-codes catalogue");
  const errors = [];
  for (const [code, entry] of Object.entries(catalogue)) {
    if (!/^[a-z][a-z0-9_]*$/.test(code)) errors.push(`${code}: a code is snake_case`);
    if (!Number.isInteger(entry?.status) || entry.status < 400 || entry.status > 599) errors.push(`${code}: status must be an integer from 400 to 599`);
    if (typeof entry?.title !== "string" || !entry.title.trim()) errors.push(`${code}: title is missing`);
  }
  // The enum is made here: one written by hand as well would be a second list to keep in step.
  if (schema.enum) errors.push("ProblemCode: leave out `enum`, it is made from x-problem-codes");
  if (errors.length) throw new Error(`problem catalogue: ${errors.join("; ")}`);
  schema.enum = Object.keys(catalogue);
  return Object.fromEntries(Object.entries(catalogue).map(([code, { status, title }]) => [code, { status, title }]));
}

/** The TypeScript module the engine, the server and the SDK import the catalogue from. */
export function problemsModule(catalogue) {
  const rows = Object.entries(catalogue).map(([code, { status, title }]) => `  ${code}: { status: ${status}, title: ${JSON.stringify(title)} },`);
  return [
    "// Generated from openapi/openapi.yaml (ProblemCode's x-problem-codes) by",
    "// packages/contract/scripts/problem-catalogue.mjs. Do not edit.",
    'import type { components } from "./schema.js";',
    "",
    'export type ProblemCode = components["schemas"]["ProblemCode"];',
    "",
    "export interface ProblemKind {",
    "  /** The HTTP status a problem with this code is answered with. */",
    "  readonly status: number;",
    "  readonly title: string;",
    "}",
    "",
    "/** Every problem code of the contract, with its status and title. */",
    "export const PROBLEMS = {",
    ...rows,
    "} as const satisfies Record<ProblemCode, ProblemKind>;",
    "",
    "/** Whether a string is a problem code of the contract. */",
    "export function isProblemCode(code: unknown): code is ProblemCode {",
    '  return typeof code === "string" && Object.prototype.hasOwnProperty.call(PROBLEMS, code);',
    "}",
    "",
  ].join("\n");
}
