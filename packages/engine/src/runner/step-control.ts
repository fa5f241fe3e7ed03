import { BenchwrightError } from "../errors.js";
import type { Transport } from "../transport/transport.js";
import { bashC, readPid, retireLines, UNDO_FIREWALL } from "./remote-scripts.js";
import { shellPath } from "./shell-quote.js";
import type { StepHandle } from "./step.js";

/**
 * What a new follower asks of a host about a step an earlier follower left: was it
 * launched (then its handle, to re-attach), or not (then it may be started: a start finds a
 * launch that is under way by itself). A launch under way is waited for, up to 2 s.
 */
export async function attachStep(transport: Transport, dir: string): Promise<StepHandle | undefined> {
  const r = await transport.exec(bashC([`d=${shellPath(dir)}`, readPid(2), 'echo "$pgid"'].join("\n")));
  if (r.code !== 0) throw new BenchwrightError("step_failed", `Cannot look for the step in ${dir} on ${transport.description}: ${r.stderr.trim()}`);
  const pgid = Number(r.stdout.trim());
  return Number.isInteger(pgid) && pgid > 1 ? { dir, pgid } : undefined;
}

/**
 * Kills every step of an execution (each subdir's process group that has not written
 * step.rc), then undoes the firewall rules its serving parts left (a KILL runs no exit trap).
 * A step whose launch is under way (its lock taken, its pid not yet written) is waited for,
 * up to 2 s. With `retire` (its session is gone) the execution is first marked so that a start
 * that reaches the host later (its command still in flight) launches nothing.
 */
export async function stopExecutionSteps(transport: Transport, executionDir: string, { retire = false } = {}): Promise<void> {
  await transport.exec(
    bashC(
      [
        ...(retire ? retireLines(executionDir) : []),
        `for d in ${shellPath(executionDir)}/*/; do`,
        '  [ -e "$d/launch.lock" ] || [ -e "$d/step.pid" ] || continue',
        ...readPid(2)
          .split("\n")
          .map((l) => `  ${l}`),
        '  [ -f "$d/step.rc" ] && continue',
        '  case "$pgid" in ""|*[!0-9]*|0|1) continue;; esac',
        '  kill -KILL -- "-$pgid" 2>/dev/null',
        "done",
        `for d in ${shellPath(executionDir)}/*/; do ${UNDO_FIREWALL}; done`,
        "true",
      ].join("\n"),
    ),
  );
}
