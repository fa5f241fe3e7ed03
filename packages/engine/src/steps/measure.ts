import type { Provenance } from "@benchwright/contract";
import { BenchwrightError } from "../errors.js";
import { followIntoLog } from "../logs/index.js";
import { mainMetricSettled } from "../results/repetitions.js";
import type { StepOutcome, StepSpec } from "../runner/step.js";
import type { StoredMetric } from "../model/metrics.js";
import type { StepKey, StepKind } from "../model/steps.js";
import { SessionDeleted, StepCancelled } from "./hand-back.js";
import { launched, withOutputTails } from "./host-step.js";
import { judge } from "./outcome.js";
import { partTelemetry, SAMPLE_INTERVAL_MS } from "./part-telemetry.js";
import { partDirLabel, partLabel, type StepPart } from "./role-parts.js";
import type { Attempt, StepTools, StepWork } from "./step-attempt.js";
import { stepDir } from "./work-dirs.js";

/** The step's measured parts, and where in them an earlier holder got to. */
export interface MeasuredParts {
  parts: StepPart[];
  /** The part under way when the step was taken over; 0 otherwise. */
  from: number;
  specOf: (part: StepPart, dir: string, round: number) => () => StepSpec;
  /** The run's provenance, when the first handle recorded is to record it too (none recorded yet). */
  provenance?: Provenance;
}

/** The measured parts, in rounds for a repeated run: each part's script followed to its end and judged. */
export async function measure(tools: StepTools, at: Attempt, measured: MeasuredParts): Promise<StepWork> {
  const { step, ctx, log, timeoutS } = at;
  const { parts, from, specOf } = measured;
  let provenance = measured.provenance;
  const { execution, signal } = ctx;
  const kind = step.step;
  const key: StepKey = { execution_id: step.execution_id, step: kind, attempt: step.attempt };
  // Metrics of the parts (machines, repetitions) an earlier holder finished.
  const metrics: StoredMetric[] = [...(step.metrics ?? [])];
  let endedAt: number | undefined;
  // A repeated run measures in rounds, every part in each.
  const plan = kind === "run" ? execution.repetitions : null;
  const rounds = plan ? ("count" in plan ? plan.count : plan.max) : 1;
  const repeated = rounds > 1;
  // A run's machines are sampled beside it unless its execution turned that off.
  const sampling = kind === "run" && execution.telemetry !== false;
  const fromRound = step.machine_id ? (step.repetition ?? 1) : 1;
  for (let round = fromRound; round <= rounds; round++) {
    for (let i = round === fromRound ? from : 0; i < parts.length; i++) {
      const part = parts[i];
      const { machine } = part;
      const label = partLabel(part);
      const dir = stepDir(machine, execution.id, kind, step.attempt, repeated ? round : 1, partDirLabel(part));
      const transport = () => tools.access.transport(execution.session_id, machine);
      const resuming = round === fromRound && i === from && step.machine_id === machine.id;
      let logStart: number;
      // Follows the step's process on the host from an offset of its log; the first call of a
      // fresh part starts it. A follow stopped to let the log drain re-attaches.
      let fresh = false;
      let deadline = new Date(step.started).getTime() + timeoutS * 1000;
      const specOfPart = specOf(part, dir, round);
      const spec = sampling ? () => ({ ...specOfPart(), telemetry: { intervalMs: SAMPLE_INTERVAL_MS } }) : specOfPart;
      const follow = async (fromOffset: number, onData: (chunk: Buffer) => void, sig: AbortSignal): Promise<StepOutcome> => {
        if (fresh) {
          fresh = false;
          deadline = Date.now() + timeoutS * 1000;
          return tools.runner.run(transport, spec(), onData, sig);
        }
        const handle = await launched(transport, dir, null);
        if (!handle) throw new BenchwrightError("step_failed", `${kind} on ${machine.id} was to be under way, but it never started there`);
        const t = transport();
        try {
          return await tools.runner.follow(t, handle, { fromOffset, onData, signal: sig, deadline, telemetry: sampling });
        } finally {
          t.release();
        }
      };
      // A step that was under way here: follow its process if it was launched, else start it.
      const handle = resuming ? await launched(transport, dir, step.pgid) : undefined;
      if (handle) {
        logStart = Number(step.machine_log_start ?? 0);
      } else {
        if (resuming) await log.truncate(Number(step.machine_log_start ?? log.bytes));
        if (!resuming && (parts.length > 1 || repeated || label))
          log.write(Buffer.from(`=== ${partTitle(kind, part, parts.length, repeated ? [round, rounds] : undefined)} ===\n`));
        logStart = log.bytes;
        // Stored before the handle names it: machine_log_start never points past the stored log.
        await log.flush(signal);
        const recorded = await tools.store.leases.recordHandle(key, ctx.owner, {
          machine_id: machine.id,
          role: label,
          repetition: round,
          pgid: null,
          machine_log_start: logStart,
          metrics,
          ...(provenance ? { provenance } : {}),
        });
        provenance = undefined;
        // Nothing starts on a host once a cancel was asked of the step (its follower may not have seen it yet);
        // checked first: a plan run's cancel asks it before it deletes the session.
        if (recorded?.cancelRequested) throw new StepCancelled(recorded.cancelRequested);
        // Nor once the session's DELETE began: it may have cleaned the host already.
        if (recorded ? !recorded.sessionActive : !(await tools.store.sessions.active(execution.session_id))) throw new SessionDeleted();
        fresh = true;
      }
      const outcome = await followIntoLog(log, logStart, follow, signal);
      // Read before the outcome is judged: a failed run's samples are kept too.
      // The follower sent it with the end; read on its own only where it did not.
      if (sampling && !outcome.unreachable) await partTelemetry(tools, { key, part, round, dir, sessionId: execution.session_id }, signal, outcome.telemetry);
      let found: StoredMetric[];
      try {
        found = judge(tools.catalog(execution), { kind, execution, machine, outcome, timeoutS, log, logStart, label });
      } catch (e) {
        throw outcome.unreachable ? e : await withOutputTails(tools.runner, e, transport, dir, signal);
      }
      const tagged = part.role === undefined ? found : found.map((m) => ({ ...m, role: part.role }));
      metrics.push(...(repeated ? tagged.map((m) => ({ ...m, repetition: round })) : tagged));
      endedAt = outcome.endedAt;
    }
    if (plan && "until_cv" in plan && round >= plan.min && mainMetricSettled(metrics, plan.until_cv)) break;
  }
  return { metrics: kind === "run" ? metrics : null, endedAt };
}

/** A part's header in the step's log: `run on m1`, `run, role client on m2`, with its repetition. */
function partTitle(kind: StepKind, part: StepPart, parts: number, repetition?: [number, number]): string {
  const label = partLabel(part);
  const where = label ? ` on ${part.machine.id}` : parts > 1 ? ` on ${part.machine.id}` : "";
  const role = label ? `, role ${label}` : "";
  return repetition ? `${kind}${role}, repetition ${repetition[0]} of at most ${repetition[1]}${where}` : `${kind}${role}${where}`;
}
