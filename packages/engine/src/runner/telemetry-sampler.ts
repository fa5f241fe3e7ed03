/** Where a step's sampler writes, in its step dir. */
export const TELEMETRY_FILE = "telemetry.log";

/**
 * The sampler: a bash loop the step's detached shell starts beside `step.sh` (same process
 * group, so a kill of the step stops it too) and stops once the step has ended, before it
 * writes step.rc. Each wake-up it copies a few `/proc` lines as they are into
 * telemetry.log, each after a letter saying where it comes from:
 *
 *   P <n>                     once, first: how many CPUs /proc/stat lists
 *   T <EPOCHREALTIME>         the time of the sample (seconds.micro, the host's clock)
 *   C cpu  <user> <nice> ...  the first line of /proc/stat (jiffies since boot, steal 8th)
 *   L <1> <5> <15> <r>/<t> .. /proc/loadavg (r: runnable tasks now, the sampler included)
 *   M MemTotal: ... kB        MemTotal, MemFree and MemAvailable of /proc/meminfo
 *   D <maj> <min> <dev> ...   /proc/diskstats, loop and ram devices left out
 *   N <if>: <rx bytes> ...    /proc/net/dev, loopback left out
 *
 * Everything else (deltas, rates, which disks count) is the engine's (results/telemetry.ts):
 * the measured machine pays for a few reads and one write a second, and no process is
 * spawned per sample: files are read by bash's `read`, and the pause is a `read -t` on a
 * pipe that never delivers (`sleep` only where that fails), so the loop costs well under
 * 0.5% of one CPU (bench/telemetry-cost.mjs). TERM takes a last sample and ends the loop.
 */
function samplerLines(intervalMs: number): string[] {
  const interval = (Math.max(100, Math.round(intervalMs)) / 1000).toFixed(3);
  const loop = [
    "bw_sample() {",
    "  local l a b c",
    '  printf "T %s\\n" "$EPOCHREALTIME"',
    '  read -r l < /proc/stat && printf "C %s\\n" "$l"',
    '  read -r l < /proc/loadavg && printf "L %s\\n" "$l"',
    '  { read -r a; read -r b; read -r c; } < /proc/meminfo && printf "M %s\\nM %s\\nM %s\\n" "$a" "$b" "$c"',
    '  while read -r l; do case "$l" in *" loop"[0-9]*|*" ram"[0-9]*) ;; *) printf "D %s\\n" "$l";; esac; done < /proc/diskstats',
    '  while read -r l; do case "$l" in *"|"*|lo:*) ;; *) printf "N %s\\n" "$l";; esac; done < /proc/net/dev',
    "}",
    "trap 'bw_sample; exit 0' TERM",
    'bw_n=0; while read -r l; do case "$l" in cpu[0-9]*) bw_n=$((bw_n + 1));; intr*) break;; esac; done < /proc/stat; echo "P $bw_n"',
    // A pipe held open for reading and writing never delivers nor ends: `read -t` on it
    // sleeps without a process. Where it returns at once, `sleep` takes over.
    "bw_nap=; exec {bw_nap}<> <(:) || bw_nap=",
    "while :; do",
    "  bw_sample",
    `  if [ -n "$bw_nap" ]; then read -r -t ${interval} -u "$bw_nap" _; [ $? -gt 128 ] || bw_nap=; else sleep ${interval}; fi`,
    "done",
  ];
  return loop;
}

/**
 * Lines of the detached shell that start the sampler in the background (`bw_tel` its pid),
 * its output in telemetry.log; stdin and stderr are closed to it, and it is started before
 * the step's pipes exist, so it holds none of them.
 */
export function startSamplerLines(intervalMs: number): string[] {
  return [`( ${samplerLines(intervalMs).join("\n")}\n) < /dev/null > ${TELEMETRY_FILE} 2> /dev/null & bw_tel=$!`];
}

/** Lines that stop the sampler once the step has ended: TERM (it takes a last sample), then waits for it. */
export const STOP_SAMPLER = ['[ -n "${bw_tel:-}" ] && { kill -TERM "$bw_tel" 2> /dev/null; wait "$bw_tel" 2> /dev/null; }'];
