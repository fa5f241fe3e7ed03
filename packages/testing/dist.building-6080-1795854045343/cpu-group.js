import { existsSync } from "node:fs";
import { mkdir, readFile, rmdir, writeFile } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
const V1 = "/sys/fs/cgroup/cpu";
/** The CFS bandwidth period a CPU limit is a share of (the kernel's default, 100 ms). */
const CPU_PERIOD_US = 100_000;
const V2 = "/sys/fs/cgroup";
/**
 * Makes a CPU cgroup of its own with a CPU weight of `shares` (cgroup v1's `cpu.shares`, 2 to
 * 262144, 1024 being the default; on cgroup v2 the same weight as `cpu.weight`). Processes in it
 * are scheduled as one group against the machine's other groups, and are out of the kernel's
 * per-session autogroups: a benchmark on a busy machine gets the CPUs its weight earns rather
 * than one session's fair share. Needs root and a writable cpu controller; says so plainly otherwise.
 */
export async function createCpuGroup(shares, { cpuLimit } = {}) {
    const name = `bw-test-${randomBytes(4).toString("hex")}`;
    const v1 = existsSync(join(V1, "cpu.shares"));
    const dir = join(v1 ? V1 : V2, name);
    try {
        if (!v1 && !(await readFile(join(V2, "cgroup.subtree_control"), "utf8")).includes("cpu"))
            throw new Error("no cpu controller");
        await mkdir(dir);
        if (v1)
            await writeFile(join(dir, "cpu.shares"), String(shares));
        // systemd's conversion of cpu.shares to cpu.weight (1 to 10000).
        else
            await writeFile(join(dir, "cpu.weight"), String(Math.round(1 + ((shares - 2) * 9999) / 262142)));
        // At most `cpuLimit` CPUs' worth of time per period, on whichever CPUs are free: a smaller
        // host whose one thread runs as fast as anyone's, unlike one pinned to a CPU a busy machine may load.
        if (cpuLimit !== undefined) {
            const quota = String(Math.round(cpuLimit * CPU_PERIOD_US));
            if (v1) {
                await writeFile(join(dir, "cpu.cfs_period_us"), String(CPU_PERIOD_US));
                await writeFile(join(dir, "cpu.cfs_quota_us"), quota);
            }
            else
                await writeFile(join(dir, "cpu.max"), `${quota} ${CPU_PERIOD_US}`);
        }
    }
    catch (e) {
        await rmdir(dir).catch(() => undefined);
        throw new Error(`Cannot make a CPU cgroup: run the tests as root, with cgroup's cpu controller writable (${e.message})`);
    }
    return {
        procsPath: join(dir, "cgroup.procs"),
        async remove() {
            // The last processes may take a moment to be reaped.
            for (let i = 0; i < 20; i++) {
                try {
                    return await rmdir(dir);
                }
                catch {
                    await new Promise((r) => setTimeout(r, 100));
                }
            }
        },
    };
}
//# sourceMappingURL=cpu-group.js.map