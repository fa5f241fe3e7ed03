import { dirname } from "node:path";
import type { MachineAccess } from "../machines/machine-access.js";
import type { Machine } from "../providers/provider.js";
import { stopAttemptSteps, stopExecutionSteps } from "../runner/step-control.js";
import type { StepRunner } from "../runner/step-runner.js";
import type { StepKind } from "../model/steps.js";
import type { Transport } from "../transport/transport.js";

/** A part's dir on its machine; a repetition after the first has its own, the first keeps the name a run that measures once has. */
export function stepDir(machine: Machine, executionId: string, kind: StepKind, attempt: number, repetition: number, label?: string): string {
  return `${machine.workRoot}/${executionId}/${kind}-${attempt}${label ? `-${label}` : ""}${repetition > 1 ? `-r${repetition}` : ""}`;
}

/** The executions' work dirs on the session's machines, where a step outlives its follower by design. */
export class WorkDirs {
  constructor(private readonly options: { access: MachineAccess; runner: StepRunner }) {}

  /** `remove` of each execution on each machine; a machine that fails is told to `failed`, and the others go on. */
  async removeAll(sessionId: string, machines: Machine[], executionIds: string[], failed: (machine: Machine, e: Error) => void): Promise<void> {
    for (const machine of machines) {
      const transport = this.options.access.transport(sessionId, machine);
      try {
        for (const id of executionIds) await this.remove(transport, machine, id);
      } catch (e) {
        failed(machine, e as Error);
      } finally {
        transport.release();
      }
    }
  }

  /**
   * Stops a cancelled attempt's parts on each machine (TERM, then KILL after `graceSeconds`),
   * leaving its dirs; a machine that fails is told to `failed`, and the others go on.
   */
  async stopAttempt(
    sessionId: string,
    machines: Machine[],
    attempt: { execution_id: string; step: StepKind; attempt: number },
    graceSeconds: number,
    failed: (machine: Machine, e: Error) => void,
  ): Promise<void> {
    for (const machine of machines) {
      const transport = this.options.access.transport(sessionId, machine);
      try {
        await stopAttemptSteps(
          transport,
          `${machine.workRoot}/${attempt.execution_id}`,
          `${attempt.step}-${attempt.attempt}`,
          graceSeconds,
          AbortSignal.timeout(STOP_TIMEOUT_MS),
        );
      } catch (e) {
        failed(machine, e as Error);
      } finally {
        transport.release();
      }
    }
  }

  /**
   * Removes an execution's work dir on a machine for good (its session is gone), first killing
   * any step still running in it (a step outlives its follower by design, so deleting a session
   * must stop it explicitly). The execution is retired there first: a start whose command is
   * still on its way (its follower aborted, the host not reached yet) then launches nothing.
   */
  async remove(transport: Transport, machine: Machine, executionId: string): Promise<void> {
    const dir = `${machine.workRoot}/${executionId}`;
    await stopExecutionSteps(transport, dir, { retire: true });
    await this.options.runner.remove(transport, dir, machine.ssh ? undefined : dirname(machine.workRoot));
  }
}

/** How long stopping an attempt on one machine may take: the grace, the launch it may wait for, and the connection. */
const STOP_TIMEOUT_MS = 30_000;
