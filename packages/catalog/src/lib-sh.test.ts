import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
    expect(bash('bw_elapsed -v a 1700000000.5 1700000002.25; bw_elapsed -v d 1 1.5; bw_elapsed -v re 2.000000 1.000000; echo "$a $d $re"')).toBe(
      "1.750 0.500 -1.000",
    );
  });

  it("starts no process with -v, where a command substitution starts one", () => {
    // The last process id the kernel gave out (/proc/loadavg), before and after: unchanged when
    // nothing forked. Others on the machine may fork meanwhile, so once in 50 tries suffices.
    const tries = (timing: string) =>
      bash(
        `n=0; for i in {1..50}; do read -r _ _ _ _ a < /proc/loadavg; ${timing}; read -r _ _ _ _ b < /proc/loadavg; [ "$a" = "$b" ] && n=$((n + 1)); done; echo $n`,
      );
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
    const out = bash(
      'bw_on_exit "echo first"; bw_scratch; d="$BW_SCRATCH"; bw_on_exit "echo second; test -d $d && echo scratch-still-there"; exit 0; echo never',
    );
    expect(out).toBe("second\nscratch-still-there\nfirst");
  });

  it("serves on a random loopback port and stops the server when the script ends, even on failure", () => {
    // A shell's own /dev/tcp cannot listen: bash with a tiny python server stands in for a real one.
    const script = `bw_serve tcp python3 -c 'import socket,time;s=socket.socket();s.bind(("127.0.0.1",int("{port}")));s.listen();time.sleep(60)'
      echo "$BW_SERVER_PORT $BW_SERVER_PID" >&2; echo "$BW_SERVER_PID"; false`;
    let pid = "";
    try {
      execFileSync("/bin/bash", ["-c", `source "$1"; set -e; ${script}`, "bash", LIB], {
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "" },
        stdio: ["ignore", "pipe", "pipe"],
      });
    } catch (e) {
      pid = String((e as { stdout: string }).stdout).trim();
    }
    expect(pid).toMatch(/^\d+$/);
    expect(() => process.kill(Number(pid), 0)).toThrow();
  });
});

describe("the prelude's guard of a serving role's port (bw_guard_port)", () => {
  // Stand-ins for the commands it runs, in a PATH of their own: `id` says who runs the step,
  // `nft` logs what it is given; the other commands are the real ones.
  function guarded(uid: number, commands: Record<string, string>, peers: string): string {
    const bin = mkdtempSync(join(tmpdir(), "bw-guard-"));
    try {
      for (const real of ["md5sum", "cut", "getent", "sort", "cat", "bash", "rm"])
        symlinkSync(execFileSync("/bin/sh", ["-c", `command -v ${real}`], { encoding: "utf8" }).trim(), join(bin, real));
      for (const [name, body] of Object.entries({ id: `echo ${uid}`, ...commands })) writeFileSync(join(bin, name), `#!/bin/bash\n${body}\n`, { mode: 0o755 });
      const work = mkdtempSync(join(tmpdir(), "bw-guard-part-"));
      try {
        return bash(`cd ${work}; BW_PEERS=${peers} bw_guard_port 5201; echo "undo: $(cat firewall.undo 2>/dev/null)"; exit 0`, bin);
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  }

  it("drops the port's packets from anything but loopback and the step's machines, and removes its table when the part ends", () => {
    const out = guarded(0, { nft: 'echo "nft $*"; [ "$1" = -f ] && cat "$2"; true' }, "10.0.0.7,fd00::7,localhost");
    const table = /^nft -f firewall\.nft\ntable inet (bw_[0-9a-f]{16}) \{$/m.exec(out)?.[1];
    expect(table, out).toBeDefined();
    expect(out).toContain("iif lo meta l4proto { tcp, udp } th dport 5201 accept");
    // A host name becomes its addresses.
    expect(out).toMatch(/ip saddr \{ 10\.0\.0\.7,127\.0\.0\.1(,[0-9.]+)* \} meta l4proto \{ tcp, udp \} th dport 5201 accept/);
    expect(out).toMatch(/ip6 saddr \{ fd00::7(,[0-9a-f:]+)* \} meta l4proto \{ tcp, udp \} th dport 5201 accept/);
    expect(out).toContain("meta l4proto { tcp, udp } th dport 5201 drop");
    expect(out).toContain("bw: port 5201 answers only loopback and 10.0.0.7,fd00::7,localhost");
    // The part's end (the script's exit) deletes the table.
    expect(out.trim().endsWith(`nft delete table inet ${table}`)).toBe(true);
  });

  it("says in the log that the port is open to every address without root or passwordless sudo, and touches no firewall", () => {
    const out = guarded(1000, { nft: "echo nft-ran", sudo: "exit 1" }, "10.0.0.7");
    expect(out).toBe("bw: port 5201 is open to every address: this step has neither root nor passwordless sudo to keep it to the session's machines\nundo:");
  });

  it("uses passwordless sudo when the step is not root", () => {
    const out = guarded(1000, { nft: 'echo "nft $*"', sudo: '[ "$1" = -n ] && shift; [ "$1" = true ] && exit 0; echo "sudo $*"; "$@"' }, "10.0.0.7");
    expect(out).toMatch(/^sudo nft -f firewall\.nft$/m);
    expect(out).toMatch(/^undo: sudo -n nft delete table inet bw_[0-9a-f]{16} 2> \/dev\/null$/m);
  });

  it("says that the port is open to every address where neither nft nor iptables is", () => {
    expect(guarded(0, {}, "10.0.0.7")).toBe("bw: port 5201 is open to every address: neither nft nor iptables is on this host\nundo:");
  });
});
