import { BenchwrightError } from "../errors.js";
import type { Transport } from "../transport/transport.js";
import { bashC } from "./remote-scripts.js";
import { shellPath } from "./shell-quote.js";
import type { StepHandle } from "./step.js";

/**
 * What a new follower asks of a host about a step an earlier follower left: was it
 * launched (then its handle, to re-attach), or not (then it may be started).
 */
export async function attachStep(transport: Transport, dir: string): Promise<StepHandle | undefined> {
  const r = await transport.exec(bashC(`cat ${shellPath(dir)}/step.pid 2>/dev/null || true`));
  if (r.code !== 0) throw new BenchwrightError("step_failed", `Cannot look for the step in ${dir} on ${transport.description}: ${r.stderr.trim()}`);
  const pgid = Number(r.stdout.trim());
  return Number.isInteger(pgid) && pgid > 1 ? { dir, pgid } : undefined;
}

/** Kills every step of an execution (each subdir's process group that has not written step.rc). */
export async function stopExecutionSteps(transport: Transport, executionDir: string): Promise<void> {
  await transport.exec(
    bashC(
      `for f in ${shellPath(executionDir)}/*/step.pid; do [ -f "$f" ] || continue; [ -f "$(dirname "$f")/step.rc" ] && continue; p=$(cat "$f"); case "$p" in ""|*[!0-9]*|0|1) continue;; esac; kill -KILL -- "-$p" 2>/dev/null; done; true`,
    ),
  );
}
