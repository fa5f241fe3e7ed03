import type { StepKey } from "../model/steps.js";
import { parseTelemetry } from "../results/telemetry.js";
import type { Transport } from "../transport/transport.js";
import { partLabel, type StepPart } from "./role-parts.js";
import type { StepTools } from "./step-attempt.js";

/** How often a run's machines are sampled: once a second, as the issue asks and mpstat does by default. */
export const SAMPLE_INTERVAL_MS = 1000;

/** Where a part of a run step ran: its attempt, its machine and role, its repetition and dir. */
export interface PartPlace {
  key: StepKey;
  part: StepPart;
  round: number;
  dir: string;
  sessionId: string;
}

/**
 * Reads what the part's sampler wrote (telemetry.log in its dir: `sent` with the step's end by
 * its follower, else read with a command of its own) and records its samples with
 * the attempt. Telemetry helps to read a result and is never one: it stays out of the run's
 * metrics (so exports, reports and series keep the tool's figures alone), and a host that
 * cannot give it leaves it out, with a warning, and the run goes on.
 */
export async function partTelemetry(tools: StepTools, place: PartPlace, signal: AbortSignal, sent?: string): Promise<void> {
  const { key, part, round, dir, sessionId } = place;
  let transport: Transport | undefined;
  try {
    let text = sent;
    if (text === undefined) {
      transport = tools.access.transport(sessionId, part.machine);
      text = await tools.runner.telemetry(transport, dir, 0, signal);
    }
    const { cpus, samples } = parseTelemetry(text);
    if (samples.length === 0) return;
    await tools.store.telemetry.record(key, { machine_id: part.machine.id, role: partLabel(part) ?? null, repetition: round, cpus, samples });
  } catch (e) {
    if (signal.aborted) throw e;
    tools.log(`cannot read the telemetry of ${key.step} ${key.attempt} on ${part.machine.id}: ${(e as Error).message}`, {
      level: "warn",
      session_id: sessionId,
      execution_id: key.execution_id,
      step: key.step,
    });
  } finally {
    transport?.release();
  }
}
