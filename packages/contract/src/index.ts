import { createRequire } from "node:module";
import { readFileSync } from "node:fs";

export type { paths, components, operations } from "./generated/schema.js";
export type * from "./schema-types.js";

// The problem catalogue (code, status, title), generated from the contract's x-problem-codes.
export { PROBLEMS, isProblemCode, type ProblemCode, type ProblemKind } from "./generated/problems.js";

/** Absolute path of the bundled contract (JSON), for validators, mocks and the docs page. */
export const specPath: string = createRequire(import.meta.url).resolve("@benchwright/contract/openapi.json");

/** The bundled contract, parsed. */
export function loadSpec(): Record<string, unknown> {
  return JSON.parse(readFileSync(specPath, "utf8"));
}

/** Absolute path of the contract's Swagger 2.0 rendition, made from the bundle at build time. */
export const swaggerPath: string = createRequire(import.meta.url).resolve("@benchwright/contract/swagger.json");

/** The Swagger 2.0 rendition, parsed. */
export function loadSwagger(): Record<string, unknown> {
  return JSON.parse(readFileSync(swaggerPath, "utf8"));
}

export { wholeAnswers } from "./whole-answers.js";
