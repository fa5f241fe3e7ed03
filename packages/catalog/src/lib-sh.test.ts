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
