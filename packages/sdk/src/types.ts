import type { components } from "./generated/schema.js";
import type { Problem, Session, StepRecord } from "./generated/schema-types.js";

export type { components, operations, paths } from "./generated/schema.js";
// The schemas the contract names (scripts/build.mjs copies its list in), and the SDK's own names below.
export type * from "./generated/schema-types.js";

type Schemas = components["schemas"];

export type SessionState = Session["state"];
export type SessionProvider = Schemas["SessionProvider"];
export type ExecutionTest = Schemas["ExecutionTest"];
export type StepName = StepRecord["step"];
/** One metric figure as the metrics export writes it (a CSV row, a JSON Lines object). */
export type MetricRow = Schemas["MetricRow"];
/** Executions compared metric by metric with a baseline (`compareExecutions`). */
export type Comparison = Schemas["Comparison"];
export type ComparedMetric = Schemas["ComparedMetric"];
export type MetricFigure = Schemas["MetricFigure"];
export type ProblemCode = Problem["code"];
/** One entry of the server's event log, as `events()` yields it; `type` says which `data` it has. */
export type BenchwrightEvent = Schemas["Event"];
export type EventType = Schemas["EventType"];
