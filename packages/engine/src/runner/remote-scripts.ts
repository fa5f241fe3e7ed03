import { shellPath, shellQuote } from "./shell-quote.js";
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
 * launchers). The end marker a follower prints last on stderr:
 * `end:rc:<code>:<age>:<ran>:<size>:<ticks>`, `end:gone:<size>:<ticks>`,
 * `end:wait:<size>:<ticks>` or `end:nodir`, where `size` (empty when the follower copied
 * the log itself after the end) is the log's size when the end was seen, and `ticks` how
 * many times the follower woke up without having been told anything.
 */

export function bashC(script: string): string {
  return `bash -c ${shellQuote(script)}`;
}

/** What the follow part of a script needs. */
export interface FollowParams {
  /** Bytes of step.log already delivered. */
  offset: number;
  /** Past this many seconds the follower gives up with `end:wait` (0: report at once). */
  maxSeconds: number;
  /** How often to look for the end where nothing pushes it (re-attached, or no GNU tail). */
  pollMs: number;
  /**
   * Send the step's telemetry.log with its end (`rc` or `gone`), on stderr before the marker:
   * `\nbw-telemetry:<bytes>\n` and the file (0 bytes when it has none), read by
   * FollowerStderr. The sampler has stopped by then, so the file is whole, and reading it
   * costs no command of its own.
   */
  telemetry?: boolean;
}

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
 * Streams step.log from byte `offset` to stdout until the step ends (step.rc written, or its
 * process group gone), or `maxSeconds` pass, then prints the end marker on stderr.
 */
export function followScript(dir: string, pgid: number, follow: FollowParams): string {
  return bashC([`cd ${shellPath(dir)} || { echo end:nodir >&2; exit 0; }`, `pgid=${pgid}; bw_end=`, ...endedAlready(follow), ...streaming(follow)].join("\n"));
}

/** Shell functions of a follower: `check` looks for the end, `marker` reports it. */
function endFunctions(follow: FollowParams): string[] {
  return [
    `off=${Math.max(0, Math.floor(follow.offset))}; fin=; ticks=0; size=`,
    'digits() { case "$1" in ""|*[!0-9]*) return 1;; esac; }',
    "check() {",
    "  if [ -s step.rc ]; then fin=rc",
    // An empty step.rc is one being written, unless the group is gone (then a full disk).
    '  elif ! kill -0 -- "-$pgid" 2>/dev/null; then if [ -e step.rc ]; then fin=rc; else fin=gone; fi',
    "  fi",
    "}",
    "marker() {",
    ...(follow.telemetry ? TELEMETRY_WITH_END : []),
    '  if [ "$fin" != rc ]; then echo "end:$fin:$size:$ticks" >&2; return; fi',
    "  local code= t0= t1= rest= now=${EPOCHREALTIME//[!0-9]/} age= ran=",
    "  read -r code t0 t1 rest < step.rc",
    "  t0=${t0//[!0-9]/}; t1=${t1//[!0-9]/}",
    '  if digits "$now" && digits "$t1"; then',
    '    age=$(( (now - t1) / 1000 )); digits "$t0" && ran=$(( (t1 - t0) / 1000 ))',
    "  else",
    // Written by an older launcher (or a bash without $EPOCHREALTIME): the files' times.
    "    now=$(date +%s%N 2>/dev/null); t1=$(date -r step.rc +%s%N 2>/dev/null); t0=$(date -r step.pid +%s%N 2>/dev/null)",
    '    if digits "$now" && digits "$t1"; then age=$(( (now - t1) / 1000000 )); fi',
    '    if digits "$t1" && digits "$t0"; then ran=$(( (t1 - t0) / 1000000 )); fi',
    "  fi",
    '  echo "end:rc:$code:$age:$ran:$size:$ticks" >&2',
    "}",
  ];
}

/** Lines of `marker` that send telemetry.log before the end marker (see FollowParams.telemetry). */
const TELEMETRY_WITH_END = [
  '  if [ "$fin" != wait ]; then',
  "    local bw_tn=0",
  "    [ -f telemetry.log ] && bw_tn=$(wc -c < telemetry.log)",
  '    printf "\\nbw-telemetry:%s\\n" "$bw_tn" >&2',
  '    [ "$bw_tn" -gt 0 ] && head -c "$bw_tn" telemetry.log >&2',
  "  fi",
];

/**
 * A step that has ended (a quick one, or one that ended while nobody followed it) is
 * answered at once: the rest of its log copied, then the marker. Needs `pgid` and the step
 * dir as working dir.
 */
function endedAlready(follow: FollowParams): string[] {
  return [
    ...endFunctions(follow),
    "check",
    'if [ -n "$fin" ]; then',
    "  if [ -s step.log ]; then tail -c +$((off + 1)) step.log || exit 1; fi",
    "  marker; exit 0",
    "fi",
  ];
}

/**
 * Follows a step still running, with `pgid` and `bw_end` (the end pipe's fd, or empty) set
 * and the step dir as working dir: GNU `tail -F --pid` streams the log as it grows (inotify)
 * while the shell waits for the end, on the end pipe when it launched the step, else by
 * polling step.rc every `pollMs`. tail follows as long as a holder process lives; at the end
 * the holder is stopped and the log touched, so that tail reads the rest and exits at once,
 * and the marker comes after every byte. Without GNU tail (busybox), the shell copies the
 * log by offset itself at each wake-up, cut at the size seen after looking for the end.
 *
 * SIGPIPE is ignored here: a dead channel fails a write (a dot every 5 s when nothing else
 * is written), and the follower then stops tail and its holder and exits.
 */
function streaming(follow: FollowParams): string[] {
  const poll = (Math.max(1, Math.round(follow.pollMs)) / 1000).toFixed(3);
  return [
    ...endFunctions(follow),
    `bw_max=${Math.max(0, Math.floor(follow.maxSeconds))}; bw_poll=${poll}; streamer=; hold_w=`,
    "quit() {",
    '  [ -n "$hold_w" ] && exec {hold_w}>&-',
    '  [ -n "$streamer" ] && kill "$streamer" 2>/dev/null',
    '  exit "$1"',
    "}",
    "trap '' PIPE",
    "trap 'quit 1' HUP INT TERM",
    "coproc BW_HOLD { read -r line; }",
    "hold_w=${BW_HOLD[1]}; hold_r=${BW_HOLD[0]}; hold_pid=$BW_HOLD_PID; nap=$hold_r; wait_s=$bw_poll",
    "if tail -c 0 --pid=$$ /dev/null > /dev/null 2>&1; then",
    "  [ -e step.log ] || : >> step.log",
    // tail looks whether its holder lives every -s seconds (else inotify wakes it): the end of a
    // step is told no later than that after the holder is stopped; 10 ms costs tail about 100
    // wake-ups a second of a few microseconds each on the host.
    '  tail -F -c +$((off + 1)) -s 0.01 --pid="$hold_pid" step.log 2> /dev/null & streamer=$!',
    "  echo via:tail >&2",
    "else",
    "  echo via:poll >&2",
    "fi",
    // Told of the end: with tail streaming, wake up only for the heartbeat.
    'if [ -n "$bw_end" ]; then nap=$bw_end; [ -n "$streamer" ] && wait_s=5; fi',
    "dot=$((SECONDS + 5))",
    "while :; do",
    "  check",
    '  if [ -z "$streamer" ]; then',
    "    size=$(stat -c %s step.log 2>/dev/null || echo 0)",
    '    if [ "$size" -gt "$off" ]; then tail -c +$((off + 1)) step.log | head -c $((size - off)) || quit 1; off=$size; fi',
    "  fi",
    '  [ -n "$fin" ] && break',
    '  if [ "$SECONDS" -ge "$bw_max" ]; then fin=wait; break; fi',
    '  if [ "$SECONDS" -ge "$dot" ]; then printf . >&2 || quit 1; dot=$((SECONDS + 5)); fi',
    '  read -r -t "$wait_s" -u "$nap" line; s=$?',
    '  if [ "$s" -gt 128 ]; then ticks=$((ticks + 1))',
    // EOF: the step's shell has exited (its code is written), or was killed: poll from now on.
    '  elif [ "$s" -ne 0 ]; then nap=$hold_r; wait_s=$bw_poll',
    "  fi",
    "done",
    'if [ -n "$streamer" ]; then',
    "  size=$(stat -c %s step.log 2>/dev/null)",
    '  exec {hold_w}>&-; hold_w=; wait "$hold_pid" 2>/dev/null',
    '  touch -c step.log 2>/dev/null; wait "$streamer"; streamer=',
    "fi",
    "marker",
  ];
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

/** What a follower reported last on stderr (see the file's comment). */
export type End =
  | { kind: "rc"; code: number | null; ageMs?: number; ranMs?: number; size?: number; ticks: number }
  | { kind: "gone" | "wait"; size?: number; ticks: number }
  | { kind: "nodir" };

export function parseEnd(stderr: string): End | undefined {
  const m = /end:(?:rc:(-?\d*):(\d*):(\d*):(\d*):(\d*)|(gone|wait):(\d*):(\d*)|(nodir))\s*$/.exec(stderr);
  if (!m) return undefined;
  const number = (text: string | undefined) => (text ? Number(text) : undefined);
  if (m[9]) return { kind: "nodir" };
  if (m[6]) return { kind: m[6] as "gone" | "wait", size: number(m[7]), ticks: number(m[8]) ?? 0 };
  // An empty step.rc (a full disk when it was written): the step ended, its code is unknown.
  const code = m[1] === "" || m[1] === "-" ? null : Number(m[1]);
  return { kind: "rc", code, ageMs: number(m[2]), ranMs: number(m[3]), size: number(m[4]), ticks: number(m[5]) ?? 0 };
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
