import type { StepKey } from "../model/steps.js";
import type { TelemetryTrack } from "../model/telemetry.js";
import type { Db } from "./db.js";
import { run } from "./sql/sql.js";
import { telemetryOf, upsertTelemetry } from "./sql/telemetry-sql.js";

/** A part's telemetry with the attempt it belongs to. */
export type StoredTelemetryTrack = TelemetryTrack & { attempt: number };

/** What the machines' samplers saw during run steps, per part of an attempt. */
export class TelemetryRepository {
  constructor(private readonly db: Db) {}

  async record(key: StepKey, track: TelemetryTrack): Promise<void> {
    await run(this.db, upsertTelemetry(key, track));
  }

  /** One attempt's parts, or every attempt's when `attempt` is absent, in attempt and repetition order. */
  async list(executionId: string, step: string, attempt?: number): Promise<StoredTelemetryTrack[]> {
    const rows = await run<StoredTelemetryTrack & { role: string }>(this.db, telemetryOf(executionId, step, attempt));
    return rows.map((r) => ({ ...r, role: r.role === "" ? null : r.role }));
  }
}
