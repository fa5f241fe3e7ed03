import { stepFields } from "../engine-log.js";
import { BenchwrightError } from "../errors.js";
import type { LogWriter } from "../logs/index.js";
import type { StepHandle, StepSpec } from "../runner/step.js";
import { SessionDeleted } from "./hand-back.js";
import { launched, withOutputTails } from "./host-step.js";
import { partLabel, readyLine, type StepPart } from "./role-parts.js";
import type { Attempt, StepContext, StepTools } from "./step-attempt.js";

/** How much of a serving part's latest output is searched for its ready line. */
const READY_WINDOW = 64 * 1024;
/** Why a serving part's follow stops: it said it is ready (the part goes on). */
const READY = Symbol("ready");

export interface ServedPart {
  part: StepPart;
  dir: string;
  spec: () => StepSpec;
  /** Where what it prints goes; none for a part re-attached only to learn what it said (logged before). */
  log: LogWriter | undefined;
  /** Seconds. */
  timeoutS: number;
  /** Told the part's handle once the host launched it (or found it launched): what stops it, without asking the host. */
  onLaunched?: (handle: StepHandle) => void;
}

/**
 * Starts a serving role's part (or finds it started, after a takeover: the host launches a
 * dir once) and follows it until it says it is ready, keeping what it prints in the step's
 * log when given one. What it said (`bw_ready port=5201`) the other parts get. A part that
 * ends first, or passes the step's time limit, fails the step.
 */
export async function serve(tools: StepTools, ctx: StepContext, served: ServedPart): Promise<Record<string, string>> {
  const { execution } = ctx;
  const { part, dir, log, timeoutS } = served;
  log?.write(Buffer.from(`=== run, role ${partLabel(part)} on ${part.machine.id} ===\n`));
  const isReady = new AbortController();
  let said: Record<string, string> | undefined;
  let seen = "";
  const onData = (chunk: Buffer) => {
    log?.write(chunk);
    if (said) return;
    seen = (seen + chunk.toString("utf8")).slice(-READY_WINDOW);
    said = readyLine(seen);
    if (said) isReady.abort(READY);
  };
  const transport = () => tools.access.transport(execution.session_id, part.machine);
  // As for a measured part (see measure): no server starts once the session's DELETE began.
  if (!(await tools.store.sessions.active(execution.session_id))) throw new SessionDeleted();
  try {
    const outcome = await tools.runner.run(transport, served.spec(), onData, AbortSignal.any([ctx.signal, isReady.signal]), served.onLaunched);
    if (said) return said;
    const how = outcome.timedOut ? `passed the step's time limit of ${timeoutS} s` : `exited with code ${outcome.exitCode ?? "none (killed)"}`;
    const error = new BenchwrightError(
      "step_failed",
      `run of ${execution.tool_id}/${execution.workload_id} on ${part.machine.id} (role ${partLabel(part)}) ${how} before it was ready`,
      {
        exit_code: outcome.exitCode,
      },
    );
    throw await withOutputTails(tools.runner, error, transport, dir, ctx.signal);
  } catch (e) {
    if (said && isReady.signal.aborted) return said;
    throw e;
  }
}

/**
 * Stops the serving parts' processes (TERM, then KILL), however the step went: no server outlives its step.
 * `handles`: those known from their launch (by dir); the host is asked for the others.
 */
export async function stopServing(tools: StepTools, at: Attempt, serving: StepPart[], dirs: string[], handles: ReadonlyMap<string, StepHandle>): Promise<void> {
  const { ctx, log } = at;
  for (const [i, part] of serving.entries()) {
    const transport = () => tools.access.transport(ctx.execution.session_id, part.machine);
    try {
      const handle = handles.get(dirs[i]) ?? (await launched(transport, dirs[i], null));
      if (!handle) continue;
      const t = transport();
      try {
        await tools.runner.kill(t, handle);
      } finally {
        t.release();
      }
      log.write(Buffer.from(`=== run, role ${partLabel(part)} on ${part.machine.id} stopped ===\n`));
    } catch (e) {
      tools.log(`cannot stop role ${partLabel(part)} of execution ${ctx.execution.id} on ${part.machine.id}: ${(e as Error).message}`, {
        ...stepFields({ execution_id: ctx.execution.id, step: "run", attempt: at.step.attempt }, ctx.execution.session_id),
        level: "warn",
      });
    }
  }
}
