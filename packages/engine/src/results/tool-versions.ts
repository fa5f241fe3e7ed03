import type { components } from "@benchwright/contract";

type Provenance = components["schemas"]["Provenance"];
type ToolVersionSide = components["schemas"]["ToolVersionSide"];

/** What telling a side's tool version needs of an execution. */
export interface VersionedRow {
  id: string;
  tool_id: string;
  workload_id: string;
  exec_env: { vms: Array<{ id: string; facts?: { tool_version?: string } }> };
  /** Its last successful run's provenance, when it recorded one. */
  provenance?: Provenance | null;
}

/**
 * A side's tool version: its run's packages as installed (`name version`, joined by `, `), each
 * machine's; else (a run from before provenance) its machines' `tool_version` facts. Machines
 * that differ are listed one after another (`; `). Undefined when none was recorded.
 */
export function sideToolVersion(row: VersionedRow): string | undefined {
  const packages = row.provenance?.packages ?? [];
  const byMachine = new Map<string, string[]>();
  for (const p of packages) byMachine.set(p.machine, [...(byMachine.get(p.machine) ?? []), `${p.name} ${p.version}`]);
  const perMachine = byMachine.size
    ? [...byMachine.values()].map((names) => names.join(", "))
    : row.exec_env.vms.flatMap((vm) => (typeof vm.facts?.tool_version === "string" && vm.facts.tool_version ? [vm.facts.tool_version] : []));
  const distinct = [...new Set(perMachine)];
  return distinct.length ? distinct.join("; ") : undefined;
}

/**
 * The sides whose tool version differs from another side's of the same tool, each with its
 * version, in the order given; empty when every side of a tool that has a version has the same
 * one. Sides of different tools are never set against each other, nor a side without a version.
 */
export function toolVersionsDiffer(rows: VersionedRow[]): ToolVersionSide[] {
  const sides = rows.flatMap((row) => {
    const version = sideToolVersion(row);
    return version === undefined ? [] : [{ execution_id: row.id, tool: row.provenance?.tool ?? row.tool_id, workload: row.workload_id, version }];
  });
  const versionsOf = new Map<string, Set<string>>();
  for (const s of sides) versionsOf.set(s.tool, (versionsOf.get(s.tool) ?? new Set()).add(s.version));
  return sides.filter((s) => versionsOf.get(s.tool)!.size > 1);
}
