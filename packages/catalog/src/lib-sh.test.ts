import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const LIB = fileURLToPath(new URL("../tools/lib.sh", import.meta.url));

/** Runs `script` in bash after sourcing the prelude; `path` replaces PATH (empty: no external command can run). */
function bash(script: string, path = process.env.PATH ?? ""): string {
  return execFileSync("/bin/bash", ["-c", `source "$1"; ${script}`, "bash", LIB], { encoding: "utf8", env: { PATH: path } }).trim();
}

describe("the prelude's timing functions", () => {
  it("times in the shell itself: bw_now and bw_elapsed run with no command on the PATH", () => {
    const out = bash('s=$(bw_now); e=$(bw_now); echo "$s $e $(bw_elapsed "$s" "$e")"', "");
    const [start, end, elapsed] = out.split(" ");
    expect(start).toMatch(/^\d{10}\.\d{6}$/);
    expect(Number(end)).toBeGreaterThanOrEqual(Number(start));
    expect(elapsed).toMatch(/^\d+\.\d{3}$/);
    expect(Number(elapsed)).toBeLessThan(1);
  });

  it("puts the readings and the seconds between them in the caller's variables with -v, its locals included", () => {
    const out = bash('f() { local s e d; bw_now -v s; bw_now -v e; bw_elapsed -v d "$s" "$e"; echo "$s $e $d"; }; f; echo "[${s:-} ${d:-}]"', "");
    const [start, end, elapsed, outside] = out.split(/ |\n/);
    expect(start).toMatch(/^\d{10}\.\d{6}$/);
    expect(Number(end)).toBeGreaterThanOrEqual(Number(start));
    expect(elapsed).toMatch(/^\d+\.\d{3}$/);
    expect(outside).toBe("[");
    // Names such a function would use for itself, and the awk fallback.
    expect(bash('bw_elapsed -v a 1700000000.5 1700000002.25; bw_elapsed -v d 1 1.5; bw_elapsed -v re 2.000000 1.000000; echo "$a $d $re"')).toBe("1.750 0.500 -1.000");
  });

  it("starts no process with -v, where a command substitution starts one", () => {
    // The last process id the kernel gave out (/proc/loadavg), before and after: unchanged when
    // nothing forked. Others on the machine may fork meanwhile, so once in 50 tries suffices.
    const tries = (timing: string) =>
      bash(`n=0; for i in {1..50}; do read -r _ _ _ _ a < /proc/loadavg; ${timing}; read -r _ _ _ _ b < /proc/loadavg; [ "$a" = "$b" ] && n=$((n + 1)); done; echo $n`);
    expect(Number(tries('bw_now -v s; bw_now -v e; bw_elapsed -v d "$s" "$e"'))).toBeGreaterThan(0);
    expect(Number(tries('s=$(bw_now); e=$(bw_now); d=$(bw_elapsed "$s" "$e")'))).toBe(0);
  });

  it.each([
    ["100.000000", "101.234567", "1.235"],
    ["1700000000.999999", "1700000001.000000", "0.000"],
    ["1700000000.000499", "1700000000.001500", "0.001"],
    ["1700000000.123456789", "1700000005.124456789", "5.001"],
    ["1700000000.5", "1700000002.25", "1.750"],
    ["1700000002.000000", "1700000000.000000", "-2.000"],
  ])("gives the seconds between %s and %s to the millisecond: %s", (start, end, expected) => {
    expect(bash(`bw_elapsed ${start} ${end}`)).toBe(expected);
  });
});

describe("the prelude's cleanups and servers", () => {
  it("runs every bw_on_exit command when the script ends, the latest first, and bw_scratch is one of them", () => {
    const out = bash('bw_on_exit "echo first"; bw_scratch; d="$BW_SCRATCH"; bw_on_exit "echo second; test -d $d && echo scratch-still-there"; exit 0; echo never');
    expect(out).toBe("second\nscratch-still-there\nfirst");
  });

  it("serves on a random loopback port and stops the server when the script ends, even on failure", () => {
    // A shell's own /dev/tcp cannot listen: bash with a tiny python server stands in for a real one.
    const script = `bw_serve tcp python3 -c 'import socket,time;s=socket.socket();s.bind(("127.0.0.1",int("{port}")));s.listen();time.sleep(60)'
      echo "$BW_SERVER_PORT $BW_SERVER_PID" >&2; echo "$BW_SERVER_PID"; false`;
    let pid = "";
    try {
      execFileSync("/bin/bash", ["-c", `source "$1"; set -e; ${script}`, "bash", LIB], { encoding: "utf8", env: { PATH: process.env.PATH ?? "" }, stdio: ["ignore", "pipe", "pipe"] });
    } catch (e) {
      pid = String((e as { stdout: string }).stdout).trim();
    }
    expect(pid).toMatch(/^\d+$/);
    expect(() => process.kill(Number(pid), 0)).toThrow();
  });
});
