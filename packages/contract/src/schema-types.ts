// The contract's schemas under their own names. The SDK's build copies this file in beside its
// copy of the generated schema: the two packages name the same types from this one list.
import type { components } from "./generated/schema.js";

type Schemas = components["schemas"];

export type Session = Schemas["Session"];
export type SessionState = Session["state"];
export type SessionCreate = Schemas["SessionCreate"];
export type SessionCreateFormA = Schemas["SessionCreateFormA"];
export type SessionCreateFormB = Schemas["SessionCreateFormB"];
export type SessionUpdate = Schemas["SessionUpdate"];
export type ProviderSection = Schemas["ProviderSection"];
export type ServiceSection = Schemas["ServiceSection"];
export type HostEntry = Schemas["HostEntry"];
export type Execution = Schemas["Execution"];
export type ExecutionCreate = Schemas["ExecutionCreate"];
export type ExecutionState = Execution["state"];
export type StepRecord = Schemas["StepRecord"];
export type StepName = StepRecord["step"];
export type StepResult = Schemas["StepResult"];
export type StepAttempt = Schemas["StepAttempt"];
export type Metric = Schemas["Metric"];
/** What the machines' samplers saw during a run (`getExecutionTelemetry`). */
export type ExecutionTelemetry = Schemas["ExecutionTelemetry"];
export type TelemetryTrack = Schemas["TelemetryTrack"];
export type TelemetrySample = Schemas["TelemetrySample"];
export type ExecutionCost = Schemas["ExecutionCost"];
export type Vm = Schemas["Vm"];
export type MachineFacts = Schemas["MachineFacts"];
/** What produced a run's figures (a run attempt's, an execution's last successful run's, a compared side's). */
export type Provenance = Schemas["Provenance"];
export type ProvenancePackage = Schemas["ProvenancePackage"];
export type Benchmark = Schemas["Benchmark"];
export type BenchmarkSource = Schemas["BenchmarkSource"];
export type BenchmarkVersion = Schemas["BenchmarkVersion"];
export type BenchmarkDefinitionDocument = Schemas["BenchmarkDefinitionDocument"];
export type Workload = Schemas["Workload"];
export type Provider = Schemas["Provider"];
export type ProviderConfiguration = Schemas["ProviderConfiguration"];
export type ProviderConfigDocument = Schemas["ProviderConfigDocument"];
export type ProviderSource = Schemas["ProviderSource"];
export type Problem = Schemas["Problem"];
export type SweepRequest = Schemas["SweepRequest"];
export type SweepReport = Schemas["SweepReport"];
/** A plan of a campaign: targets × benchmarks, checked and expanded (`createPlan`). */
export type Plan = Schemas["Plan"];
export type PlanCreate = Schemas["PlanCreate"];
/** A precision plan's ask, its budget, and how each of its cells went (docs/plans.md). */
export type PlanPrecision = Schemas["PlanPrecision"];
export type PlanBudget = Schemas["PlanBudget"];
export type PlanExpectedCell = Schemas["PlanExpectedCell"];
export type PlanCellPrecision = Schemas["PlanCellPrecision"];
export type SessionProvider = Schemas["SessionProvider"];
export type ExecutionTest = Schemas["ExecutionTest"];
/** One metric figure as the metrics export writes it (a CSV row, a JSON Lines object). */
export type MetricRow = Schemas["MetricRow"];
/** Executions compared metric by metric with a baseline (`compareExecutions`). */
export type Comparison = Schemas["Comparison"];
export type ComparedMetric = Schemas["ComparedMetric"];
export type MetricFigure = Schemas["MetricFigure"];
/** What a figure may claim against the baseline with a margin (`compareExecutions` with `margin`, a plan's report). */
export type Claim = Schemas["Claim"];
/** A figure in the two-level model: machines, runs, and how much it varies between and within machines. */
export type FigureVariability = Schemas["FigureVariability"];
/** A compared side whose tool version differs from another's (`Comparison.tool_versions_differ`). */
export type ToolVersionSide = Schemas["ToolVersionSide"];
/** A compared side whose params differ from another's of its workload (`Comparison.params_differ`). */
export type ParamsSide = Schemas["ParamsSide"];
export type EventType = Schemas["EventType"];
/** A run of a plan: its state, progress, sessions and cells (`startPlanRun`). */
export type PlanRun = Schemas["PlanRun"];
/** What a run measures: its branch and commit (`startPlanRun`). */
export type PlanRunStart = Schemas["PlanRunStart"];
export type PlanRunCell = Schemas["PlanRunCell"];
export type PlanRunProgress = Schemas["PlanRunProgress"];
/** The report of a plan's run (`getPlanRunReport`), and one line of it as CSV or JSON Lines. */
export type PlanReport = Schemas["PlanReport"];
export type PlanReportRow = Schemas["PlanReportRow"];
/** A plan's schedule as the plan shows it (`createPlan` with `schedule`). */
export type PlanSchedule = Schemas["PlanSchedule"];
export type PlanScheduleCreate = Schemas["PlanScheduleCreate"];
export type PlanRunTrigger = Schemas["PlanRunTrigger"];
/** One metric of one benchmark on one target over time (`listSeries`), and its points. */
export type Series = Schemas["Series"];
export type SeriesPoint = Schemas["SeriesPoint"];
export type SeriesBaseline = Schemas["SeriesBaseline"];
export type SeriesBaselineSet = Schemas["SeriesBaselineSet"];
export type SeriesComparison = Schemas["SeriesComparison"];
export type PointFacts = Schemas["PointFacts"];
/** A change of level found in a series (`listChanges`). */
export type Change = Schemas["Change"];
export type ChangeDirection = Schemas["ChangeDirection"];
export type ChangeState = Schemas["ChangeState"];
export type FactChange = Schemas["FactChange"];
/** A webhook and its deliveries (`createWebhook`). */
export type Webhook = Schemas["Webhook"];
export type WebhookCreate = Schemas["WebhookCreate"];
export type WebhookEvent = Schemas["WebhookEvent"];
export type WebhookDelivery = Schemas["WebhookDelivery"];
/** One state-changing request in the audit log (`listAuditEntries`). */
export type AuditEntry = Schemas["AuditEntry"];
/** An API token's record (`createToken`; its `token` in that answer only) and its role. */
export type Token = Schemas["Token"];
export type TokenCreate = Schemas["TokenCreate"];
export type TokenRole = Schemas["TokenRole"];
export type Whoami = Schemas["Whoami"];
/** A harness's output added to the series (`createIngest`), and a CI's gate on its points (`createGate`). */
export type IngestCreate = Schemas["IngestCreate"];
export type Ingest = Schemas["Ingest"];
export type IngestPoint = Schemas["IngestPoint"];
export type GateCreate = Schemas["GateCreate"];
export type Gate = Schemas["Gate"];
export type GateCell = Schemas["GateCell"];
