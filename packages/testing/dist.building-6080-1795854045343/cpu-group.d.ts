export interface CpuGroup {
    /** The file a process's id is written to, to move it into the group (its children follow it). */
    procsPath: string;
    /** Removes the group once no process is left in it; a group still in use stays. */
    remove(): Promise<void>;
}
/**
 * Makes a CPU cgroup of its own with a CPU weight of `shares` (cgroup v1's `cpu.shares`, 2 to
 * 262144, 1024 being the default; on cgroup v2 the same weight as `cpu.weight`). Processes in it
 * are scheduled as one group against the machine's other groups, and are out of the kernel's
 * per-session autogroups: a benchmark on a busy machine gets the CPUs its weight earns rather
 * than one session's fair share. Needs root and a writable cpu controller; says so plainly otherwise.
 */
export declare function createCpuGroup(shares: number, { cpuLimit }?: {
    cpuLimit?: number;
}): Promise<CpuGroup>;
