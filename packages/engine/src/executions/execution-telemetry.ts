import type { ExecutionTelemetry } from "@benchwright/contract";
import { BenchwrightError } from "../errors.js";
import { SAMPLE_INTERVAL_MS } from "../steps/part-telemetry.js";
import type { Store } from "../store/store.js";
import { telemetryCsv, trackView } from "../views/telemetry-view.js";

export type TelemetryFormat = "json" | "csv";

/** The telemetry in the format asked for: the JSON view, or CSV text with its media type. */
export type TelemetryAnswer = { format: "json"; body: ExecutionTelemetry } | { format: "csv"; mediaType: string; body: string };

/**
 * What the machines' samplers saw during a run attempt of an execution (the last by default):
 * a 404 without that attempt. An attempt that took no samples (telemetry off, a host that
 * could not give them) answers with no machines.
 */
export async function executionTelemetry(store: Store, id: string, attempt: number | undefined, format: TelemetryFormat): Promise<TelemetryAnswer> {
  const execution = await store.executions.get(id);
  if (!execution) throw new BenchwrightError("not_found", `No execution ${id}`);
  const runs = (await store.steps.list([id])).filter((s) => s.step === "run").map((s) => s.attempt);
  const chosen = attempt ?? (runs.length ? Math.max(...runs) : undefined);
  if (chosen === undefined || !runs.includes(chosen))
    throw new BenchwrightError("not_found", `Execution ${id} has no run attempt${attempt === undefined ? "" : ` ${attempt}`}`);
  const tracks = await store.telemetry.list(id, "run", chosen);
  const body: ExecutionTelemetry = {
    execution_id: id,
    attempt: chosen,
    enabled: execution.telemetry !== false,
    interval_ms: SAMPLE_INTERVAL_MS,
    machines: tracks.map(trackView),
  };
  return format === "csv" ? { format, mediaType: "text/csv; charset=utf-8; header=present", body: telemetryCsv(body) } : { format, body };
}
