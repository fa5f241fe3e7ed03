// The contract's schemas under their own names. The SDK's build copies this file in beside its
// copy of the generated schema: the two packages name the same types from this one list.
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
export type SweepRequest = Schemas["SweepRequest"];
export type SweepReport = Schemas["SweepReport"];
