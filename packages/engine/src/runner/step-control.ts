import { BenchwrightError } from "../errors.js";
import type { Transport } from "../transport/transport.js";
import { readPid, retireLines, UNDO_FIREWALL } from "./remote-scripts.js";
import { bashC, shellPath } from "./shell-quote.js";
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
 * Loop-body lines for a step dir `$d`: skip it unless a step was launched there (waiting up to
 * 2 s for a launch under way) and has not ended; else its process group id is in `$pgid`.
 */
const RUNNING_PGID = [
  '  [ -e "$d/launch.lock" ] || [ -e "$d/step.pid" ] || continue',
  ...readPid(2)
    .split("\n")
    .map((l) => `  ${l}`),
  '  [ -f "$d/step.rc" ] && continue',
  '  case "$pgid" in ""|*[!0-9]*|0|1) continue;; esac',
];

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
        ...RUNNING_PGID,
        '  kill -KILL -- "-$pgid" 2>/dev/null',
        "done",
        `for d in ${shellPath(executionDir)}/*/; do ${UNDO_FIREWALL}; done`,
        "true",
      ].join("\n"),
    ),
  );
}

/**
 * Stops one attempt of a step in an execution's dir: its dir `<name>` and those of its roles and
 * repetitions (`<name>-*`). Each part that has not written step.rc gets TERM to its process
 * group (a workload may clean up), then KILL once `graceSeconds` pass with any of them alive;
 * then the firewall rules its serving parts left are undone. A launch under way is waited
 * for, up to 2 s. The dirs stay, logs and all: a later attempt has dirs of its own.
 */
export async function stopAttemptSteps(transport: Transport, executionDir: string, name: string, graceSeconds: number, signal?: AbortSignal): Promise<void> {
  // `<step>-<attempt>`: a glob of it matches no other attempt's dirs (run-1-* is not run-10).
  if (!/^[a-z]+-\d+$/.test(name)) throw new BenchwrightError("internal", `Not a step attempt's dir name: ${name}`);
  const dirs = `${shellPath(executionDir)}/${name}/ ${shellPath(executionDir)}/${name}-*/`;
  const r = await transport.exec(
    bashC(
      [
        "groups=",
        `for d in ${dirs}; do`,
        ...RUNNING_PGID,
        '  kill -TERM -- "-$pgid" 2>/dev/null && groups="$groups $pgid"',
        "done",
        // Any process (zombies aside) still in one of the groups.
        "alive() {",
        "  local s l r",
        "  for s in /proc/[0-9]*/stat; do",
        '    read -r l < "$s" 2>/dev/null || continue',
        "    r=${l##*) }; set -- $r",
        '    [ "$1" = Z ] && continue',
        '    case " $groups " in *" $3 "*) return 0;; esac',
        "  done",
        "  return 1",
        "}",
        `if [ -n "$groups" ]; then for i in $(seq 1 ${Math.max(1, Math.round(graceSeconds * 10))}); do alive || break; sleep 0.1; done; fi`,
        'for g in $groups; do kill -KILL -- "-$g" 2>/dev/null; done',
        `for d in ${dirs}; do [ -d "$d" ] || continue; ${UNDO_FIREWALL}; done`,
        "true",
      ].join("\n"),
    ),
    { signal },
  );
  if (r.code !== 0) throw new BenchwrightError("step_failed", `Cannot stop ${name} in ${executionDir} on ${transport.description}: ${r.stderr.trim()}`);
}
