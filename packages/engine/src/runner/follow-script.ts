import { bashC, shellPath } from "./shell-quote.js";

/**
 * The shell programs that follow a step on its target: stream step.log and report the end.
 * The end marker a follower prints last on stderr:
 * `end:rc:<code>:<age>:<ran>:<size>:<ticks>`, `end:gone:<size>:<ticks>`,
 * `end:wait:<size>:<ticks>` or `end:nodir`, where `size` (empty when the follower copied
 * the log itself after the end) is the log's size when the end was seen, and `ticks` how
 * many times the follower woke up without having been told anything. The step dir's files
 * are described in remote-scripts.ts.
 */

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

/**
 * Lines of `marker` that send telemetry.log before the end marker (see FollowParams.telemetry).
 * Read by builtins alone (the file is the sampler's text lines, whole once it has stopped):
 * counting and copying it with `wc` and `head` cost the end of every run two processes, a
 * millisecond or more each before its end is told. In the C locale `${#...}` counts bytes.
 */
const TELEMETRY_WITH_END = [
  '  if [ "$fin" != wait ]; then',
  "    local LC_ALL=C bw_tl=() bw_ts=",
  "    [ -f telemetry.log ] && mapfile -t bw_tl < telemetry.log",
  '    [ "${#bw_tl[@]}" -gt 0 ] && printf -v bw_ts "%s\\n" "${bw_tl[@]}"',
  '    printf "\\nbw-telemetry:%s\\n%s" "${#bw_ts}" "$bw_ts" >&2',
  "  fi",
];

/**
 * A step that has ended (a quick one, or one that ended while nobody followed it) is
 * answered at once: the rest of its log copied, then the marker. Needs `pgid` and the step
 * dir as working dir.
 */
export function endedAlready(follow: FollowParams): string[] {
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
export function streaming(follow: FollowParams): string[] {
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
