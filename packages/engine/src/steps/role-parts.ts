import type { RoleDefinition } from "@benchwright/catalog";
import type { Machine } from "../providers/provider.js";

/** One machine's share of a step: the whole step on it, or one role's. */
export interface StepPart {
  machine: Machine;
  /** Absent for a workload without roles. */
  role?: string;
  /** Its place among the role's machines, from 0. */
  index: number;
  /** A serving role's part runs beside the others' and is stopped when they end. */
  serves: boolean;
}

/** How many machines a workload's roles need (a provider that makes machines makes that many). */
export function machinesNeeded(roles: Record<string, RoleDefinition> | undefined): number {
  return roles ? Object.values(roles).reduce((n, r) => n + r.count, 0) : 1;
}

/**
 * The parts of a step. Without roles, the step on every machine, as ever. With roles, the
 * machines go to the roles in their declared order, `count` each; where there are fewer
 * machines than that, they are used again in turn (one host holds every role, as on `local`).
 * Serving parts come first: they must answer before the others start.
 */
export function stepParts(roles: Record<string, RoleDefinition> | undefined, machines: Machine[]): StepPart[] {
  if (machines.length === 0) return [];
  if (!roles) return machines.map((machine, index) => ({ machine, index, serves: false }));
  const parts: StepPart[] = [];
  let next = 0;
  for (const [role, def] of Object.entries(roles)) {
    for (let index = 0; index < def.count; index++) parts.push({ machine: machines[next++ % machines.length], role, index, serves: def.serves });
  }
  return [...parts.filter((p) => p.serves), ...parts.filter((p) => !p.serves)];
}

/** Names a part in the log, in dirs and in the step's handle: `server`, `client-2`. */
/**
 * The name a part's dir carries: its role's label, or without roles `m<n>` for every machine
 * after the first. Machines that share a file system (a cluster's NFS home, hosts of one
 * kernel) would otherwise share a dir and take one another's step for their own.
 */
export function partDirLabel(part: StepPart): string | undefined {
  return partLabel(part) ?? (part.index > 0 ? `m${part.index + 1}` : undefined);
}

export function partLabel(part: StepPart): string | undefined {
  return part.role === undefined ? undefined : part.index === 0 ? part.role : `${part.role}-${part.index + 1}`;
}

/**
 * What every part's script learns of the roles: its own (BW_ROLE, BW_ROLE_INDEX), each role's
 * addresses (BW_ROLE_<NAME>_HOST, the first; BW_ROLE_<NAME>_HOSTS, all, comma separated; the
 * private ones where the machines have them) and
 * what each serving role said when it was ready (`bw_ready port=5201` on the role's first
 * machine gives BW_ROLE_<NAME>_PORT), and every address the step's machines are known by
 * (BW_PEERS: the only ones a serving part's port answers, lib.sh's bw_guard_port). Values
 * travel in env.sh, quoted, never in script text.
 */
export function roleEnv(part: StepPart, parts: StepPart[], ready: ReadonlyMap<string, Record<string, string>>): Record<string, string> {
  if (part.role === undefined) return {};
  const peers = new Set(parts.flatMap((p) => [p.machine.ip, p.machine.privateIp ?? []].flat()));
  const env: Record<string, string> = { BW_ROLE: part.role, BW_ROLE_INDEX: String(part.index), BW_PEERS: [...peers].join(",") };
  const byRole = new Map<string, StepPart[]>();
  for (const p of parts) if (p.role !== undefined) byRole.set(p.role, [...(byRole.get(p.role) ?? []), p]);
  for (const [role, ofRole] of byRole) {
    const name = `BW_ROLE_${role.toUpperCase()}`;
    // The address the session's machines reach each other at: a cloud machine's private one.
    const address = (p: StepPart) => p.machine.privateIp ?? p.machine.ip;
    env[`${name}_HOST`] = address(ofRole[0]);
    env[`${name}_HOSTS`] = ofRole.map(address).join(",");
    const said = ready.get(partLabel(ofRole[0])!);
    for (const [key, value] of Object.entries(said ?? {})) env[`${name}_${key.toUpperCase()}`] = value;
  }
  return env;
}

/**
 * The line a serving part prints once it answers (lib.sh's bw_ready): `BW_READY` and
 * `key=value` pairs, keys in lower case, values without spaces. Undefined until the whole line is there.
 */
export function readyLine(output: string): Record<string, string> | undefined {
  // Only a whole line: a chunk may end inside it (`port=52` of `port=5201`).
  const line = /^BW_READY((?: +[a-z][a-z0-9_]*=\S*)*) *\r?\n/m.exec(output);
  if (!line) return undefined;
  const values: Record<string, string> = {};
  for (const pair of line[1].trim().split(/ +/).filter(Boolean)) {
    const eq = pair.indexOf("=");
    values[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return values;
}
