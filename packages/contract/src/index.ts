import { createRequire } from "node:module";
import { readFileSync } from "node:fs";

export type { paths, components, operations } from "./generated/schema.js";
import type { components } from "./generated/schema.js";

type Schemas = components["schemas"];
export type Session = Schemas["Session"];
export type SessionCreate = Schemas["SessionCreate"];
export type SessionCreateFormA = Schemas["SessionCreateFormA"];
export type SessionCreateFormB = Schemas["SessionCreateFormB"];
export type ProviderSection = Schemas["ProviderSection"];
export type ServiceSection = Schemas["ServiceSection"];
export type HostEntry = Schemas["HostEntry"];
export type Execution = Schemas["Execution"];
export type ExecutionCreate = Schemas["ExecutionCreate"];
export type ExecutionState = Execution["state"];
export type StepRecord = Schemas["StepRecord"];
export type StepResult = Schemas["StepResult"];
export type StepAttempt = Schemas["StepAttempt"];
export type Metric = Schemas["Metric"];
export type Vm = Schemas["Vm"];
export type MachineFacts = Schemas["MachineFacts"];
export type Benchmark = Schemas["Benchmark"];
export type Workload = Schemas["Workload"];
export type Provider = Schemas["Provider"];
export type Problem = Schemas["Problem"];
// The problem catalogue (code, status, title), generated from the contract's x-problem-codes.
export { PROBLEMS, isProblemCode, type ProblemCode, type ProblemKind } from "./generated/problems.js";
export type SweepRequest = Schemas["SweepRequest"];
export type SweepReport = Schemas["SweepReport"];

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
