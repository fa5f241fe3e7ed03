import { waitForStep, type BenchwrightClient, type ExecutionCreate, type StepAttempt, type StepName } from "@benchwright/sdk";
import type { Progress } from "./progress.js";

/** How long the log may go on arriving once the step has ended (its last bytes are in flight). */
const LOG_DRAIN_MS = 5_000;

/**
 * Starts a step (`Prefer: respond-async`), shows it until it has ended, with its log as it
 * is written when `follow`, and returns the ended attempt: `succeeded` or `failed`.
 */
export async function runStep(
  bw: BenchwrightClient,
  progress: Progress,
  execId: string,
  step: StepName,
  options: { follow: boolean; signal: AbortSignal; repetitions?: ExecutionCreate["repetitions"] },
): Promise<StepAttempt> {
  const { signal } = options;
  const started = step === "prepare" ? await bw.prepare(execId, { async: true, signal }) : await bw.run(execId, { async: true, signal });
  const phase = `${step}: attempt ${started.attempt}`;
  progress.start(phase);
  const stopLog = new AbortController();
  // A repeated run says in its log which repetition starts: read for that even when not shown.
  const plan = options.repetitions;
  const repetitions = plan && step === "run" ? repetitionWatch(plan.count !== undefined, (r) => progress.update(`${phase}, ${r}`)) : undefined;
  const following =
    options.follow || repetitions
      ? followLog(bw, progress, started, AbortSignal.any([signal, stopLog.signal]), (text) => {
          repetitions?.(text);
          if (options.follow) progress.log(text);
        })
      : Promise.resolve();
  try {
    const ended = await waitForStep(bw, started, { signal, intervalMs: 500 });
    const drained = setTimeout(() => stopLog.abort(), LOG_DRAIN_MS);
    await following;
    clearTimeout(drained);
    progress.flush();
    const took = ended.duration === null ? "" : ` in ${ended.duration} s`;
    if (ended.state === "succeeded") progress.succeed(`${step}: attempt ${ended.attempt} succeeded${took}`);
    else progress.fail(`${step}: attempt ${ended.attempt} failed${took}${ended.error ? `: ${ended.error.detail}` : ""}`);
    return ended;
  } catch (e) {
    progress.stop();
    throw e;
  } finally {
    stopLog.abort();
    await following;
  }
}

async function followLog(bw: BenchwrightClient, progress: Progress, attempt: StepAttempt, signal: AbortSignal, onText: (text: string) => void): Promise<void> {
  try {
    for await (const text of bw.logs(attempt.execution_id, { step: attempt.step, attempt: attempt.attempt, follow: true, signal })) onText(text);
  } catch (e) {
    // Stopped on purpose (the step ended, or Ctrl-C): the step's own outcome says the rest.
    if (!signal.aborted) progress.log(`(the log stopped: ${(e as Error).message})\n`);
  }
}

/** The header the engine writes in a repeated run's log as each repetition starts (`=== run, repetition 2 of at most 3 ===`). */
const REPETITION_HEADER = /^=== run(?:, role [^,]+)?, repetition (\d+) of at most (\d+)\b/gm;

/**
 * Reads a run's log as it comes and calls `onRepetition` with `repetition 2/3` when a
 * repetition of a `fixed` count starts (`repetition 2 (at most 10)` for a run that repeats
 * until it is steady). A header may arrive split across chunks: the unfinished line waits for its end.
 */
export function repetitionWatch(fixed: boolean, onRepetition: (text: string) => void): (text: string) => void {
  let partial = "";
  return (text) => {
    const lines = partial + text;
    const end = lines.lastIndexOf("\n");
    partial = lines.slice(end + 1);
    let last: RegExpExecArray | undefined;
    for (const m of lines.slice(0, end + 1).matchAll(REPETITION_HEADER)) last = m;
    if (last) onRepetition(`repetition ${last[1]}${fixed ? `/${last[2]}` : ` (at most ${last[2]})`}`);
  };
}

/** The last `lines` lines of a step's log, for the person reading why it failed. */
export async function logTail(bw: BenchwrightClient, attempt: StepAttempt, lines = 20): Promise<string> {
  try {
    const log = await bw.getLog(attempt.execution_id, { step: attempt.step, attempt: attempt.attempt });
    return log.trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "";
  }
}
