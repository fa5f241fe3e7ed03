import type { StepKey } from "../../model/steps.js";
import type { TelemetryTrack } from "../../model/telemetry.js";
import { json, type Sql } from "./sql.js";

/** Records one part's samples; a part recorded again (a holder that took the step over read them anew) replaces them. */
export function upsertTelemetry(key: StepKey, track: TelemetryTrack): Sql {
  return {
    text: `INSERT INTO step_telemetry (execution_id, step, attempt, machine_id, role, repetition, cpus, samples)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (execution_id, step, attempt, machine_id, role, repetition) DO UPDATE SET cpus = EXCLUDED.cpus, samples = EXCLUDED.samples`,
    values: [key.execution_id, key.step, key.attempt, track.machine_id, track.role ?? "", track.repetition, track.cpus, json(track.samples)],
  };
}

/** The parts' samples of one attempt, or of every attempt of an execution's step when `attempt` is absent. */
export function telemetryOf(executionId: string, step: string, attempt?: number): Sql {
  return {
    text: `SELECT attempt, machine_id, role, repetition, cpus, samples FROM step_telemetry
       WHERE execution_id = $1 AND step = $2 AND ($3::integer IS NULL OR attempt = $3)
       ORDER BY attempt, repetition, machine_id, role`,
    values: [executionId, step, attempt ?? null],
  };
}
