import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { envFileContent } from "./env-file.js";

describe("envFileContent", () => {
  it("exports each variable single-quoted", () => {
    const text = envFileContent({ BW_STEP: "run", QUOTE: "it's" });
    expect(text).toContain("export BW_STEP='run'\n");
    expect(text).toContain(`export QUOTE='it'\\''s'\n`);
  });

  it("gives bash back the exact values, with /usr/sbin and /sbin on PATH", () => {
    const env = { A: 'it\'s $(id) `x` \\ "q"', B_2: "line1\nline2", _C: "", lower: "ok" };
    const script = `${envFileContent(env)}\nprintf '%s\\0' "$A" "$B_2" "$_C" "$lower" "$PATH"`;
    const out = execFileSync("bash", ["-c", script], { env: { PATH: "/usr/bin:/bin" }, stdio: ["ignore", "pipe", "pipe"] })
      .toString()
      .split("\0");
    expect(out.slice(0, 4)).toEqual([env.A, env.B_2, env._C, env.lower]);
    expect(out[4].split(":")).toEqual(expect.arrayContaining(["/usr/bin", "/usr/sbin", "/sbin"]));
  });

  it("refuses invalid names", () => {
    for (const name of ["1A", "A-B", "A B", "A;rm", "", "A=B"]) {
      expect(() => envFileContent({ [name]: "x" })).toThrow(/Invalid environment variable name/);
    }
  });
});
