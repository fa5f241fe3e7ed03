import { paramEnv, type ParamDeclaration, type ParamValue, type RoleDefinition } from "@benchwright/catalog";
import type { Provenance } from "@benchwright/contract";
import { BenchwrightError } from "../errors.js";
import { readMachineFacts, type MachineFacts } from "../machines/facts.js";
import { readToolVersion } from "../machines/tool-version.js";
import type { Machine } from "../providers/provider.js";
import type { StepHandle, StepSpec } from "../runner/step.js";
import type { ExecutionRow } from "../model/executions.js";
import type { VmRecord } from "../model/machines.js";
import { askedMachines, machinesToAsk } from "./asked-machines.js";
import { isHandBack } from "./hand-back.js";
import { measure } from "./measure.js";
import { runProvenance } from "./provenance.js";
import { machinesNeeded, partLabel, roleEnv, stepParts, type StepPart } from "./role-parts.js";
import { serve, stopServing } from "./role-serving.js";
import type { Attempt, StepTools, StepWork } from "./step-attempt.js";
import { lostWithItsDriver } from "./work-place.js";
import { stepDir } from "./work-dirs.js";

/** What a step's work reads of its workload's definition, once, when the step is taken. */
export interface WorkloadSide {
  roles: Record<string, RoleDefinition> | undefined;
  /** The parameters the workload declares now. */
  declared: Record<string, ParamDeclaration> | undefined;
  /** What the parts of this attempt share to guard a serving role (a database's password), when it has roles. */
  secret: string | undefined;
}

/**
 * The step's parts in turn (each machine's, or each role's on its machine): started, or
 * re-attached where its row says one is under way. A run's serving roles are started first
 * and stopped once the other parts have ended, however they ended.
 */
export async function work(tools: StepTools, at: Omit<Attempt, "timeoutS">, workload: WorkloadSide): Promise<StepWork> {
  const { step, ctx, log } = at;
  const { execution, signal } = ctx;
  const kind = step.step;
  const hasRoles = workload.roles !== undefined;
  const asked = execution.repetitions;
  const machines = askedMachines(await ctx.machines(machinesToAsk(machinesNeeded(workload.roles), hasRoles, asked)), hasRoles, asked);
  // Taken over from a driver elsewhere: a part on its own host is beyond reach, launched or not.
  const lost = lostWithItsDriver(kind, machines, step.place, tools.place);
  if (lost) throw lost;
  const parts = stepParts(workload.roles, machines);
  const timeoutS = ctx.timeoutOverride ?? tools.catalog(execution).timeouts(execution.tool_id, execution.workload_id)[kind];
  const attempt: Attempt = { ...at, timeoutS };
  const serving = kind === "run" ? parts.filter((p) => p.serves) : [];
  const measured = kind === "run" ? parts.filter((p) => !p.serves) : parts;
  let from = 0;
  if (step.machine_id) {
    from = measured.findIndex((p) => p.machine.id === step.machine_id && (partLabel(p) ?? null) === (step.role ?? null));
    if (from < 0) throw new BenchwrightError("step_failed", `${kind} was under way on machine ${step.machine_id}, which the session no longer has`);
  } else if (kind === "prepare") {
    await recordFacts(tools, execution, machines);
  }
  // Only a prepare changes the machines' facts (recordFacts, just above): a run has them in its row.
  const vms = kind === "prepare" ? (await tools.store.executions.get(execution.id))!.exec_env.vms : execution.exec_env.vms;
  const values = stepParams(execution, workload.declared);
  const params = paramEnv(values);
  const scriptOf = (part: StepPart): string => {
    const platform = vms.find((v) => v.id === part.machine.id)?.platform || part.machine.platform;
    const opts = { platform, allowInstall: part.machine.allowInstall, ...(part.role === undefined ? {} : { role: part.role }) };
    return kind === "prepare"
      ? tools.catalog(execution).prepareScript(execution.tool_id, execution.workload_id, opts)
      : tools.catalog(execution).runScript(execution.tool_id, execution.workload_id, opts);
  };
  // A run taken over keeps what its first holder recorded: that is what its parts were started with.
  let provenance: Provenance | undefined;
  if (kind === "run" && !step.provenance) {
    const scripts = parts.map((part) => ({ machine: part.machine.id, role: part.role, script: scriptOf(part) }));
    provenance = runProvenance({
      catalog: tools.catalog(execution),
      toolId: execution.tool_id,
      workloadId: execution.workload_id,
      vms,
      params: values,
      scripts,
      definitionVersion: execution.definition_version,
    });
    // Without a serving part, it rides with the first part's handle (the write before its launch): one write less per run.
    if (serving.length > 0) {
      await tools.store.steps.setProvenance({ execution_id: execution.id, step: kind, attempt: step.attempt }, provenance);
      provenance = undefined;
    }
  }
  const specOf = (part: StepPart, dir: string, round: number, ready: ReadonlyMap<string, Record<string, string>>) => (): StepSpec => {
    return {
      dir,
      script: scriptOf(part),
      env: {
        // Parameter values travel as data in env.sh, never inside the script's text.
        ...params,
        ...roleEnv(part, parts, ready),
        // What a serving role guards itself with (a database's password), shared by the
        // parts of this attempt alone: in env.sh, which only the login user reads; a script
        // that prints it prints stars to the log (maskingSecrets).
        ...(part.role !== undefined && workload.secret ? { BW_STEP_SECRET: workload.secret } : {}),
        BW_EXECUTION_ID: execution.id,
        BW_STEP: kind,
        BW_ATTEMPT: String(step.attempt),
        BW_MACHINE: part.machine.id,
        BW_REPETITION: String(round),
      },
      timeoutMs: timeoutS * 1000,
    };
  };

  const ready = new Map<string, Record<string, string>>();
  const launchedServers = new Map<string, StepHandle>();
  const servingDirs = serving.map((part) => stepDir(part.machine, execution.id, kind, step.attempt, 1, partLabel(part)));
  // Taken over once a measured part had begun (the row names it): every serving part was
  // ready, and its output is in the log; it is re-attached only to learn what it said. Taken
  // over while they started: they are re-read from the start, and so is the log.
  const servedBefore = !!step.machine_id;
  if (serving.length > 0 && !servedBefore && log.bytes > 0) await log.truncate(0);
  try {
    for (const [i, part] of serving.entries()) {
      const spec = specOf(part, servingDirs[i], 1, ready);
      const onLaunched = (handle: StepHandle) => launchedServers.set(handle.dir, handle);
      ready.set(partLabel(part)!, await serve(tools, ctx, { part, dir: servingDirs[i], spec, log: servedBefore ? undefined : log, timeoutS, onLaunched }));
    }
    const work = await measure(tools, attempt, { parts: measured, from, specOf: (part, dir, round) => specOf(part, dir, round, ready), provenance });
    await stopServing(tools, attempt, serving, servingDirs, launchedServers);
    if (kind === "prepare") await recordToolVersions(tools, execution, machines, signal);
    return work;
  } catch (e) {
    // A hand-back leaves the step going on, servers included, for the next holder.
    if (!isHandBack(e, signal)) await stopServing(tools, attempt, serving, servingDirs, launchedServers);
    throw e;
  }
}

/**
 * The values the scripts get: those resolved against the workload and stored when the
 * execution was created. A parameter the workload declares that the row lacks gets its
 * default, as the scripts read every declared one (under `set -u`): one declared since the
 * row was written (a dropped-in file changed), or a row from before parameters existed.
 */
export function stepParams(execution: ExecutionRow, declared: Record<string, ParamDeclaration> | undefined): Record<string, ParamValue> {
  const defaults = Object.fromEntries(Object.entries(declared ?? {}).map(([name, d]) => [name, d.default]));
  return { ...defaults, ...execution.params };
}

/** Prepare reads what each machine is, so that results stay comparable. */
async function recordFacts(tools: StepTools, execution: ExecutionRow, machines: Machine[]): Promise<void> {
  const vms: VmRecord[] = [];
  for (const machine of machines) {
    const transport = tools.access.transport(execution.session_id, machine);
    try {
      const { platform, ...read } = await readMachineFacts(transport);
      const facts = { ...read, ...placementFacts(machine, read.os_release) };
      const vm = { id: machine.id, ip: machine.ip, platform: machine.platform || platform || "unknown", facts };
      vms.push(vm);
      await tools.store.machines.upsert({ session_id: execution.session_id, id: vm.id, ip: vm.ip, platform: vm.platform, facts });
    } finally {
      transport.release();
    }
  }
  await tools.store.executions.setExecEnv(execution.id, { vms });
}

/**
 * What the machine was made from, as what and where: a cloud's image id, machine type and zone;
 * a host that is not a cloud's is known by its OS release alone.
 */
function placementFacts(machine: Machine, osRelease: string | undefined): Pick<MachineFacts, "image" | "instance_type" | "zone"> {
  const { image = osRelease, instanceType, zone } = machine.placement ?? {};
  return { ...(image ? { image } : {}), ...(instanceType ? { instance_type: instanceType } : {}), ...(zone ? { zone } : {}) };
}

/**
 * A prepare that succeeded has the tool installed: which version each machine has joins its
 * facts in the execution's environment (not the session's machine, which other tools share).
 * A version that cannot be read is left out; it never fails the prepare.
 */
async function recordToolVersions(tools: StepTools, execution: ExecutionRow, machines: Machine[], signal: AbortSignal): Promise<void> {
  const env = (await tools.store.executions.get(execution.id))?.exec_env;
  if (!env) return;
  const vms: VmRecord[] = [];
  for (const vm of env.vms) {
    const machine = machines.find((m) => m.id === vm.id);
    let version: string | undefined;
    if (machine) {
      const transport = tools.access.transport(execution.session_id, machine);
      try {
        const query = tools.catalog(execution).toolVersion(execution.tool_id, vm.platform || machine.platform);
        version = query && (await readToolVersion(transport, query, signal));
      } catch (e) {
        if (signal.aborted) throw e;
        tools.log(`cannot read the version of ${execution.tool_id} on ${machine.id}: ${(e as Error).message}`, {
          level: "warn",
          session_id: execution.session_id,
          execution_id: execution.id,
          step: "prepare",
        });
      } finally {
        transport.release();
      }
    }
    vms.push(version === undefined ? vm : { ...vm, facts: { ...vm.facts, tool_version: version } });
  }
  await tools.store.executions.setExecEnv(execution.id, { vms });
}
