import { waitForStep, type BenchwrightClient, type StepAttempt, type StepName } from "@benchwright/sdk";
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
  options: { follow: boolean; signal: AbortSignal },
): Promise<StepAttempt> {
  const { signal } = options;
  const started = step === "prepare" ? await bw.prepare(execId, { async: true, signal }) : await bw.run(execId, { async: true, signal });
  progress.start(`${step}: attempt ${started.attempt}`);
  const stopLog = new AbortController();
  const following = options.follow ? followLog(bw, progress, started, AbortSignal.any([signal, stopLog.signal])) : Promise.resolve();
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

async function followLog(bw: BenchwrightClient, progress: Progress, attempt: StepAttempt, signal: AbortSignal): Promise<void> {
  try {
    for await (const text of bw.logs(attempt.execution_id, { step: attempt.step, attempt: attempt.attempt, follow: true, signal })) progress.log(text);
  } catch (e) {
    // Stopped on purpose (the step ended, or Ctrl-C): the step's own outcome says the rest.
    if (!signal.aborted) progress.log(`(the log stopped: ${(e as Error).message})\n`);
  }
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
