// What the server, the dashboard's tests and bench/ import; everything else stays inside the engine.
export { Engine } from "./engine.js";
export { DEFAULT_MAX_STEP_TIMEOUT_S, type EngineOptions } from "./engine-options.js";
export type { MetricsExportQuery, Page, Visibility } from "./lists/list-query.js";
export type { TokenRole } from "./tokens/tokens.js";
export { TokenWatch, type WatchedToken } from "./tokens/token-watch.js";
export { ANONYMOUS_PRINCIPAL, BOOTSTRAP_PRINCIPAL, RESERVED_PRINCIPAL_MESSAGE } from "./model/principals.js";
export type { MetricRow } from "./lists/metric-rows.js";
export { csvLine } from "./results/csv-record.js";
export type { PlanRunCell } from "./model/plan-runs.js";
export { compareExecutions, type ComparedRow } from "./results/comparison.js";
export { checkNewPoint, detectChangePoints } from "./results/change-points.js";
export { gaussian, seededRandom } from "./results/seeded-random.js";
export { allocate, nextStep } from "./results/allocation.js";
export { nestedSummary } from "./results/nested-summary.js";
export { buildPlanReport } from "./plans/report/plan-report.js";
export { renderReport, type ReportFormat } from "./plans/report/plan-reports.js";
export type { TelemetryFormat } from "./executions/execution-telemetry.js";
export type { EngineLog } from "./engine-log.js";
export { BenchwrightError, isBenchwrightError, type ProblemExtras } from "./errors.js";
export { storageFull, storageFullReason } from "./storage-full.js";
export { migratedPgliteImage, openDb } from "./store/open-db.js";
export { migrate } from "./store/migrations.js";
export { DirectoryLocked } from "./store/dir-lock.js";
export type { Ownership } from "./store/owners-repository.js";
export { storeWithEvents } from "./events/store-with-events.js";
export { ChangeChecker } from "./series/change-checker.js";
export type { BwEvent, EventFilter, EventType } from "./model/events.js";
export { CREDENTIAL_KEYS, MASK, secretForms } from "./secrets/scrub.js";
export { DbLogStore, type StepLogView } from "./logs/index.js";
// A step output's stages on their own, for their cost per GiB (bench/output-stages.mjs).
export { FileLogStore } from "./logs/file-log-store.js";
export { maskingSecrets } from "./logs/secret-masking-writer.js";
export { Scrubber } from "./secrets/scrub.js";
export type { OutboundPolicy } from "./net/outbound-guard.js";
// The transport and the runner on their own, for measuring them apart from the engine (bench/ssh-latency.mjs, bench/step-overhead.mjs).
export { SshPool } from "./transport/ssh-pool.js";
export { SSH_CIPHERS } from "./transport/ssh-ciphers.js";
export { InMemoryHostKeyStore } from "./transport/host-key.js";
export { StepRunner } from "./runner/step-runner.js";
export { bashC } from "./runner/shell-quote.js";
// A receiver's check of a delivery's Benchwright-Signature; the server's webhook setting.
export { verifyWebhookSignature } from "./alerts/webhook-signature.js";
export type { WebhookOptions } from "./alerts/webhook-deliverer.js";
