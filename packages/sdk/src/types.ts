import type { components } from "./generated/schema.js";

export type { components, operations, paths } from "./generated/schema.js";

type Schemas = components["schemas"];

export type Session = Schemas["Session"];
export type SessionState = Session["state"];
export type SessionProvider = Schemas["SessionProvider"];
export type SessionCreate = Schemas["SessionCreate"];
export type SessionCreateFormA = Schemas["SessionCreateFormA"];
export type SessionCreateFormB = Schemas["SessionCreateFormB"];
export type ProviderSection = Schemas["ProviderSection"];
export type ServiceSection = Schemas["ServiceSection"];
export type HostEntry = Schemas["HostEntry"];
export type Execution = Schemas["Execution"];
export type ExecutionState = Execution["state"];
export type ExecutionCreate = Schemas["ExecutionCreate"];
export type ExecutionTest = Schemas["ExecutionTest"];
export type StepRecord = Schemas["StepRecord"];
export type StepName = StepRecord["step"];
export type StepResult = Schemas["StepResult"];
export type StepAttempt = Schemas["StepAttempt"];
export type Metric = Schemas["Metric"];
/** One metric figure as the metrics export writes it (a CSV row, a JSON Lines object). */
export type MetricRow = Schemas["MetricRow"];
/** Executions compared metric by metric with a baseline (`compareExecutions`). */
export type Comparison = Schemas["Comparison"];
export type ComparedMetric = Schemas["ComparedMetric"];
export type MetricFigure = Schemas["MetricFigure"];
export type Vm = Schemas["Vm"];
export type MachineFacts = Schemas["MachineFacts"];
export type Benchmark = Schemas["Benchmark"];
export type Workload = Schemas["Workload"];
export type Provider = Schemas["Provider"];
export type Problem = Schemas["Problem"];
export type ProblemCode = Problem["code"];
export type SweepRequest = Schemas["SweepRequest"];
export type SweepReport = Schemas["SweepReport"];
/** One entry of the server's event log, as `events()` yields it; `type` says which `data` it has. */
export type BenchwrightEvent = Schemas["Event"];
export type EventType = Schemas["EventType"];
