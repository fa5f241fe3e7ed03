import { realpathSync } from "node:fs";
import { hostname } from "node:os";
import { resolve } from "node:path";
import { BenchwrightError } from "../errors.js";
import type { Machine } from "../providers/provider.js";
import type { StepKind } from "../model/steps.js";

/**
 * Where this process runs a part on its own host: its host's name and its data dir. The local
 * provider's work dirs are below the data dir, so only a process in the same place reaches a
 * part launched there, its files and its processes alike. A machine reached over SSH is the
 * same for every process, wherever it runs.
 */
export function workPlace(dataDir: string): string {
  let dir = resolve(dataDir);
  try {
    dir = realpathSync(dir);
  } catch {
    // Not made yet: its path as given names it.
  }
  return `${hostname()}:${dir}`;
}

/**
 * The error that ends an attempt taken over from a driver elsewhere when some of its parts run
 * on that driver's own host (the local provider): their dirs, and so whether they were
 * launched, are out of this process's reach, and launching them again here would run the
 * workload twice. Undefined when every part can be reached (the same place, or SSH machines).
 */
export function lostWithItsDriver(kind: StepKind, machines: Machine[], recorded: string | null, here: string): BenchwrightError | undefined {
  if (recorded === null || recorded === here) return undefined;
  const local = machines.filter((m) => !m.ssh);
  if (local.length === 0) return undefined;
  return new BenchwrightError(
    "step_failed",
    `${kind} was lost with the process that drove it: it ran on ${local.map((m) => m.id).join(", ")} in ${recorded}, which this process (${here}) cannot reach; it is not started again here, and may have gone on there`,
    { exit_code: null },
  );
}
