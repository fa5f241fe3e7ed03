import { shellPath, shellQuote } from "./shell-quote.js";

/**
 * The shell programs the runner sends to a target. Every one runs under `bash -c` so that
 * the target user's login shell does not matter.
 */

export function bashC(script: string): string {
  return `bash -c ${shellQuote(script)}`;
}

/** Creates the step dir and clears what a previous launch in it left. */
export function prepareScript(dir: string): string {
  return bashC(`set -e; mkdir -p ${shellPath(dir)}; cd ${shellPath(dir)}; rm -rf step.log step.rc step.rc.tmp step.pid step.pid.tmp launch.lock`);
}

/**
 * Starts the step detached (new session, immune to hangups, no tie to the channel) and
 * prints its process group id. The inner shell records its own pid, which setsid made the
 * group id, so the value is right whether or not setsid had to fork. The lock makes a
 * repeated launch (after a connection lost mid-launch) report the first step instead of
 * starting a second one.
 */
export function launchScript(dir: string): string {
  const inner = "echo $$ > step.pid.tmp && mv step.pid.tmp step.pid; source ./env.sh; bash ./step.sh > step.log 2>&1; echo $? > step.rc.tmp; mv step.rc.tmp step.rc";
  return bashC(
    [
      `cd ${shellPath(dir)} || exit 97`,
      `if mkdir launch.lock 2>/dev/null; then setsid nohup bash -c ${shellQuote(inner)} > /dev/null 2>&1 < /dev/null & fi`,
      // Waits for the pid file, whichever launch wrote it.
      "for i in $(seq 1 100); do [ -s step.pid ] && break; sleep 0.05; done",
      // A marker, since a login shell's rc file may print to stdout before us.
      'echo "pgid:$(cat step.pid)"',
    ].join("\n"),
  );
}

/**
 * Streams step.log from byte `offset` to stdout until step.rc exists (or the process
 * group is gone, or `maxSeconds` pass), then reports on stderr `end:rc:<code>:<age>:<ran>`,
 * `end:gone` or `end:wait`. `age` is how many ms ago step.rc was written and `ran` how many
 * ms the step ran (step.pid to step.rc), both by the host's own clock, so that time spent
 * unable to reach the host counts in neither; each is empty where `date` lacks %N.
 * Bytes are cut at the size seen *after* checking for the end, so when the end is reported
 * every byte written before it has been sent. A dot on stderr every few seconds makes the
 * loop die of SIGPIPE once nobody reads it.
 */
export function followScript(dir: string, pgid: number, offset: number, maxSeconds: number): string {
  return bashC(
    [
      `cd ${shellPath(dir)} || { echo end:nodir >&2; exit 0; }`,
      'digits() { case "$1" in ""|*[!0-9]*) return 1;; esac; }',
      `off=${offset}; n=0; fin=`,
      "while :; do",
      "  if [ -e step.rc ]; then fin=rc",
      `  elif ! kill -0 -- -${pgid} 2>/dev/null; then if [ -e step.rc ]; then fin=rc; else fin=gone; fi`,
      "  fi",
      "  size=$(stat -c %s step.log 2>/dev/null || echo 0)",
      '  if [ "$size" -gt "$off" ]; then',
      '    tail -c +$((off + 1)) step.log | head -c $((size - off)) || exit 1',
      "    off=$size",
      "  fi",
      '  if [ "$fin" = rc ]; then',
      "    now=$(date +%s%N 2>/dev/null); rc_at=$(date -r step.rc +%s%N 2>/dev/null); pid_at=$(date -r step.pid +%s%N 2>/dev/null); age=; ran=",
      '    if digits "$now" && digits "$rc_at"; then age=$(( (now - rc_at) / 1000000 )); fi',
      '    if digits "$rc_at" && digits "$pid_at"; then ran=$(( (rc_at - pid_at) / 1000000 )); fi',
      '    echo "end:rc:$(cat step.rc):$age:$ran" >&2; exit 0',
      "  fi",
      '  if [ "$fin" = gone ]; then echo end:gone >&2; exit 0; fi',
      `  if [ "$SECONDS" -ge ${Math.max(0, Math.floor(maxSeconds))} ]; then echo end:wait >&2; exit 0; fi`,
      "  n=$((n + 1)); if [ $((n % 20)) -eq 0 ]; then printf . >&2 || exit 1; fi",
      "  sleep 0.25",
      "done",
    ].join("\n"),
  );
}

/**
 * Kills the step's process group: TERM, then KILL after `graceSeconds` if any member is
 * still alive. Zombies waiting for a slow init to reap them count as gone.
 */
export function killScript(pgid: number, graceSeconds: number): string {
  return bashC(
    [
      "alive() {",
      "  local s l r",
      "  for s in /proc/[0-9]*/stat; do",
      '    read -r l < "$s" 2>/dev/null || continue',
      '    r=${l##*) }; set -- $r',
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

export function removeScript(dir: string): string {
  return bashC(`rm -rf -- ${shellPath(dir)}`);
}
