import { endedAlready, streaming, type FollowParams } from "./follow-script.js";
import { bashC, shellPath, shellQuote } from "./shell-quote.js";
import { STOP_SAMPLER, startSamplerLines, TELEMETRY_FILE } from "./telemetry-sampler.js";

/**
 * The shell programs the runner sends to a target. Every one runs under `bash -c` so that
 * the target user's login shell does not matter.
 *
 * Files of a step dir: `launch.lock` (taken once: whoever creates it launches), `step.sh`,
 * `env.sh`, `step.pid` (the step's process group id), `step.log` (its output), `step.out` and
 * `step.err` (its stdout and its stderr alone, through the FIFOs `step.out.fifo` and
 * `step.err.fifo`), `telemetry.log` (the sampler's, when the step has one) and `step.rc`
 * (`<code> <start> <end>`, the times in µs by the host's clock; a bare `<code>` from older
 * launchers). The programs that follow a step and report its end are in follow-script.ts.
 */

/** The step's files: inline (written by the start script itself) or uploaded beforehand under a suffix. */
export type StepFiles = { inline: { script: string; env: string } } | { stagedAs: string };

/**
 * The detached part: the step's own shell, in its own session (setsid), immune to hangups
 * (what nohup did, without its exec). It records its pid (the group id), tells it to the
 * launcher, runs step.sh with env.sh sourced and writes the code with the start and end
 * times. The script runs in a subshell rather than a fresh bash: one exec less per step.
 * Its stdout is the launcher's end pipe, where it writes its pid only once step.pid holds
 * it; the pipe's EOF then tells of its exit. A launcher gone meanwhile must not kill it
 * with SIGPIPE, and the step gets SIGPIPE back as it was.
 *
 * The step's stdout and stderr go through a `tee` each (via FIFOs), into step.log as
 * before and also into step.out and step.err: a failed step reports each on its own, as the
 * Benchmarking Suite did. The tees are started from a process substitution whose pipe they
 * alone hold (fd 3), so the shell learns when both have copied everything (EOF) before it
 * writes step.rc: no byte reaches step.log after the end. A process the step left running
 * with its output open would keep them alive: the shell waits 5 s at most for that. Without
 * tee or mkfifo, the output goes to step.log alone, as it always did.
 *
 * With `samplerIntervalMs`, the machine's telemetry sampler (telemetry-sampler.ts) runs
 * beside the step and is stopped once it has ended, before step.rc: a follower that sees
 * step.rc finds telemetry.log complete.
 */
function detached(samplerIntervalMs?: number): string {
  return [
    'trap "" HUP PIPE; bw_t0=$EPOCHREALTIME; echo $$ > step.pid; echo $$ 2> /dev/null; trap - PIPE; source ./env.sh',
    ...(samplerIntervalMs ? startSamplerLines(samplerIntervalMs) : []),
    ...DETACHED_RUN,
    // The step's end is when its script ended, not when its sampler was stopped after it.
    "bw_t1=$EPOCHREALTIME",
    ...(samplerIntervalMs ? STOP_SAMPLER : []),
    'echo "$bw_rc $bw_t0 $bw_t1" > step.rc',
  ].join("\n");
}

const DETACHED_RUN = [
  // A launch happens once per dir (launch.lock): the FIFOs cannot be there yet. Every process
  // spawned here costs the step a millisecond or two, hence no rm before or after (the FIFOs
  // go with the dir) and the second tee in place of its subshell.
  "if command -v tee > /dev/null && mkfifo -m 600 step.out.fifo step.err.fifo 2> /dev/null; then",
  "  exec {bw_done}< <(exec 3>&1 > /dev/null; tee step.out < step.out.fifo >> step.log & exec tee step.err < step.err.fifo >> step.log)",
  "  ( source ./step.sh ) < /dev/null > step.out.fifo 2> step.err.fifo {bw_done}<&-; bw_rc=$?",
  '  read -r -t 5 -u "$bw_done" bw_line; exec {bw_done}<&-',
  "else",
  "  ( source ./step.sh ) < /dev/null >> step.log 2>&1; bw_rc=$?",
  "fi",
];

/**
 * Shell lines that wait up to `seconds` for the pid of a launch under way in dir `$d` (its
 * lock taken, step.pid not written yet), then read it into `pgid` (empty when none).
 */
export function readPid(seconds: number): string {
  return [
    `for ((i = 0; i < ${Math.max(1, Math.round(seconds * 20))}; i++)); do [ -s "$d/step.pid" ] && break; [ -e "$d/launch.lock" ] || break; sleep 0.05; done`,
    'pgid=; read -r pgid < "$d/step.pid" 2> /dev/null',
  ].join("\n");
}

/**
 * Creates the step dir if needed and, unless the step was launched there already, writes
 * its files and launches it detached; then prints `pgid:<id>` on stderr and (unless
 * `follow` is undefined) follows it as {@link followScript} does. A second start in the
 * same dir (a start retried after a lost answer, another worker's takeover) finds the lock
 * or step.pid and re-attaches instead: a step is never started twice. The launching shell
 * holds the read end of a pipe whose only writer is the step's shell, so the end of the step
 * reaches it at once. A start that cannot be made prints `start:<why>` and exits 97.
 */
export function startScript(dir: string, files: StepFiles, follow?: FollowParams, samplerIntervalMs?: number): string {
  const staged = "stagedAs" in files ? files.stagedAs : undefined;
  const write =
    "inline" in files
      ? [
          // env.sh may hold what others must not read: private files, the step keeps the login umask.
          'bw_umask=; while read -r k v; do [ "$k" = Umask: ] && { bw_umask=$v; break; }; done < /proc/self/status 2>/dev/null',
          '[ -n "$bw_umask" ] || bw_umask=$(umask)',
          "umask 077",
          `printf %s ${shellQuote(files.inline.script)} > step.sh && printf %s ${shellQuote(files.inline.env)} > env.sh || { umask "$bw_umask"; echo start:write >&2; exit 97; }`,
          'umask "$bw_umask"',
        ]
      : [`mv -f step.sh.${staged} step.sh && mv -f env.sh.${staged} env.sh || { echo start:write >&2; exit 97; }`];
  return bashC(
    [
      `bw_dir=${shellPath(dir)}`,
      'cd "$bw_dir" 2>/dev/null || { mkdir -p "$bw_dir" && cd "$bw_dir"; } || { echo start:nodir >&2; exit 97; }',
      "bw_end=; pgid=",
      // noclobber makes the redirection an exclusive create: one launcher wins.
      "if [ ! -e step.pid ] && { set -C; : > launch.lock; } 2>/dev/null; then",
      "  set +C",
      // Its execution was retired (its session deleted) while this start was on its way: the
      // retiring waits for launches whose lock it sees, so one that locks after it must not launch.
      ...RETIRED_CHECK.map((l) => `  ${l}`),
      ...write.map((l) => `  ${l}`),
      "  [ -e step.rc ] && rm -f step.rc",
      "  : > step.log",
      // Backgrounded from a subshell that exits at once: the step is nobody's child here, so a
      // kill of this session's process tree does not reach it.
      `  exec {bw_end}< <(setsid bash -c ${shellQuote(detached(samplerIntervalMs))} < /dev/null 2> /dev/null &)`,
      '  read -r -t 10 -u "$bw_end" pgid',
      "else",
      "  set +C",
      ...(staged ? [`  rm -f step.sh.${staged} env.sh.${staged}`] : []),
      // Launched by someone else, maybe an instant ago.
      "  d=.",
      ...readPid(10)
        .split("\n")
        .map((l) => `  ${l}`),
      "fi",
      'case "$pgid" in ""|*[!0-9]*|0|1) echo start:nopid >&2; exit 97;; esac',
      'echo "pgid:$pgid" >&2',
      ...(follow
        ? [
            // A quick step: its end comes before a streamer would be worth starting.
            '[ -n "$bw_end" ] && read -r -t 0.05 -u "$bw_end" line',
            ...endedAlready(follow),
            // It goes on: follow it from a shell whose command line does not hold the step's files
            // (anyone on the host may read a command line).
            `exec bash -c ${shellQuote(["pgid=$1; bw_end=$2", ...streaming(follow)].join("\n"))} bw-follow "$pgid" "$bw_end"`,
          ]
        : ["exit 0"]),
    ].join("\n"),
  );
}

/**
 * Kills the step's process group: TERM, then KILL after `graceSeconds` if any member is
 * still alive. Zombies waiting for a slow init to reap them count as gone. Then undoes what
 * it left in the host's firewall (a serving part's guard, lib.sh's bw_guard_port), which a
 * KILL gives it no chance to undo itself.
 */
export function killScript(pgid: number, graceSeconds: number, dir: string): string {
  return bashC(
    [
      `d=${shellPath(dir)}`,
      `trap '${UNDO_FIREWALL}' EXIT`,
      "alive() {",
      "  local s l r",
      "  for s in /proc/[0-9]*/stat; do",
      '    read -r l < "$s" 2>/dev/null || continue',
      "    r=${l##*) }; set -- $r",
      `    [ "$3" = ${pgid} ] && [ "$1" != Z ] && return 0`,
      "  done",
      "  return 1",
      "}",
      `kill -TERM -- -${pgid} 2>/dev/null || exit 0`,
      `for i in $(seq 1 ${Math.max(1, graceSeconds * 10)}); do alive || exit 0; sleep 0.1; done`,
      `kill -KILL -- -${pgid} 2>/dev/null`,
      "exit 0",
    ].join("\n"),
  );
}

/** Runs (once) what a serving part wrote to undo its firewall rule in `$d`, if it did. */
export const UNDO_FIREWALL = '[ -f "$d/firewall.undo" ] && bash "$d/firewall.undo" && rm -f "$d/firewall.undo"; true';

/**
 * Where a step dir's execution is marked retired: `<root>/.gone/<execution>`, beside the
 * executions' dirs (parameter expansion only: no process in a launch that goes ahead).
 */
const RETIRED_CHECK = ["bw_x=${bw_dir%/*}", 'if [ -e "${bw_x%/*}/.gone/${bw_x##*/}" ]; then rm -rf -- "$bw_x"; echo start:retired >&2; exit 97; fi'];

/**
 * Marks an execution's dir retired, so that a start still on its way there launches nothing
 * and removes what it made (see {@link startScript}); marks older than a day are pruned: no
 * start is late by that much.
 */
export function retireLines(executionDir: string): string[] {
  return [
    `bw_x=${shellPath(executionDir)}`,
    'mkdir -p "${bw_x%/*}/.gone" && : > "${bw_x%/*}/.gone/${bw_x##*/}"',
    'find "${bw_x%/*}/.gone" -type f -mmin +1440 -delete 2>/dev/null',
  ];
}

export function removeScript(dir: string): string {
  return bashC(`rm -rf -- ${shellPath(dir)}`);
}

/** The process group id a start script printed, if it got that far. */
export function parsePgid(stderr: string): number | undefined {
  const m = /(?:^|\n)pgid:(\d+)\n/.exec(stderr);
  return m ? Number(m[1]) : undefined;
}

/** Why a start script gave up (`start:<why>`), if it did. */
export function parseStartFailure(stderr: string): string | undefined {
  return /(?:^|\n)start:(\w+)\n/.exec(stderr)?.[1];
}

/**
 * Prints the last `bytes` of the step's stdout (step.out) on stdout and of its stderr
 * (step.err) on stderr, each after a marker line: whatever a login shell prints before it
 * is cut off by {@link parseOutputTail}. A file that is not there (a step launched before
 * step.out existed, or on a host without tee) prints no marker.
 */
export function outputTailsScript(dir: string, bytes: number): string {
  const n = Math.max(1, Math.floor(bytes));
  return bashC(
    [
      `cd ${shellPath(dir)} 2> /dev/null || exit 0`,
      `[ -f step.out ] && { echo ${TAIL_MARKER}; tail -c ${n} step.out; }`,
      `[ -f step.err ] && { echo ${TAIL_MARKER}; tail -c ${n} step.err; } >&2`,
      "exit 0",
    ].join("\n"),
  );
}

const TAIL_MARKER = "bw-output-tail";

/** What follows the marker line of {@link outputTailsScript} on one stream; undefined without it. */
export function parseOutputTail(text: string): string | undefined {
  const at = text.indexOf(`${TAIL_MARKER}\n`);
  return at < 0 ? undefined : text.slice(at + TAIL_MARKER.length + 1);
}

/** Prints a step dir's telemetry.log from byte `offset` (nothing when it has none). */
export function telemetryReadScript(dir: string, offset = 0): string {
  return bashC(`cd ${shellPath(dir)} 2> /dev/null && [ -f ${TELEMETRY_FILE} ] && tail -c +${Math.max(0, Math.floor(offset)) + 1} ${TELEMETRY_FILE}; exit 0`);
}

/** Creates a dir for files uploaded before a start. */
export function mkdirScript(dir: string): string {
  return bashC(`mkdir -p -- ${shellPath(dir)}`);
}
