import { describe, expect, it } from "vitest";
import { bashC } from "../runner/shell-quote.js";
import { LocalShell, unwrapBashC } from "./local-shell.js";

describe("unwrapBashC", () => {
  it("gives back the script that bashC wrapped", () => {
    for (const script of ["true", "echo 'it'\\''s'", "a'b", "'", "''", "x'", "'x", 'echo "$HOME"\nexit 3', ""]) {
      expect(unwrapBashC(bashC(script)), script).toBe(script);
    }
  });

  it("leaves any other command whole", () => {
    for (const command of ["echo hi", "bash -c 'a' ; rm -rf x", "bash -c 'a' 'b'", "bash -c 'a'b'", "bash -c x y", "PATH=/x bash -c 'a'", "bash -c '"]) {
      expect(unwrapBashC(command), command).toBe(command);
    }
  });

  it("runs a wrapped script as bash would", async () => {
    const local = new LocalShell();
    const script = 'printf \'%s|\' "$0" "it\'s"; exit 3';
    // A leading space keeps the command from being unwrapped: bash runs a second bash.
    const direct = await local.exec(` ${bashC(script)}`);
    const wrapped = await local.exec(bashC(script));
    expect(wrapped).toEqual(direct);
    expect(wrapped).toMatchObject({ code: 3, stdout: "bash|it's|" });
  });
});
