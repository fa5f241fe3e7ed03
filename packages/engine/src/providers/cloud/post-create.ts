import { BenchwrightError } from "../../errors.js";
import type { Machine, ProviderContext } from "../provider.js";
import type { ExecResult } from "../../transport/transport.js";
import { timerDelay } from "../../time.js";

/** How much of the script's output a failure quotes: enough to see why, bounded whatever the script prints. */
const TAIL_CHARS = 1000;

/** The last `max` characters of what a stream sent, without keeping the rest. */
function tailKeeper(max: number) {
  let text = "";
  return {
    add: (chunk: Buffer) => {
      text = (text + chunk.toString("utf8")).slice(-max);
    },
    get: () => text,
  };
}

/**
 * Runs a service's `post_create_script` (the ancestor's first command on a new VM, such as
 * `sudo hostname localhost`) on a machine that was just made and answers SSH, through the
 * engine's transport. Any exit but 0, or no end within `timeoutMs`, is a failure the caller
 * tears the machine down for, as for any other creation failure.
 */
export async function runPostCreate(ctx: ProviderContext, machine: Machine, script: string, timeoutMs: number, log: (line: string) => void): Promise<void> {
  const what = `post_create_script on ${machine.id}`;
  if (!ctx.exec) throw new BenchwrightError("internal", `${what} cannot run: this engine gives providers no way to run commands`);
  log(`running ${what}`);
  const timeout = AbortSignal.timeout(timerDelay(timeoutMs));
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout;
  const output = tailKeeper(TAIL_CHARS);
  let result: ExecResult;
  try {
    result = await ctx.exec(machine, script, { signal, onStdout: output.add, onStderr: output.add });
  } catch (error) {
    if (timeout.aborted) throw new BenchwrightError("provider_failed", `${what} did not end within ${Math.round(timeoutMs / 1000)} s`);
    throw new BenchwrightError("provider_failed", `${what} could not run: ${(error as Error).message}`);
  }
  const tail = output.get().trim();
  if (result.code !== 0) {
    const ended = result.code === null ? `was killed${result.signal ? ` (${result.signal})` : ""}` : `exited with code ${result.code}`;
    throw new BenchwrightError("provider_failed", `${what} ${ended}${tail ? `; its output ended with: ${tail}` : ""}`);
  }
  log(`${what} succeeded${tail ? `: ${tail}` : ""}`);
}
