import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { shellPath, shellQuote } from "./shell-quote.js";

const echoed = (words: string) =>
  execFileSync("bash", ["-c", `printf '%s\\n' ${words}`], {
    encoding: "utf8",
    env: { HOME: "/home/x" },
    stdio: ["ignore", "pipe", "pipe"],
  });

describe("shellQuote", () => {
  it("leaves plain words alone and quotes the rest", () => {
    expect(shellQuote("abc-1.2/x")).toBe("abc-1.2/x");
    expect(shellQuote("")).toBe("''");
    expect(shellQuote("a b")).toBe("'a b'");
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });

  it("survives bash for hostile words", () => {
    for (const word of ["it's", "$(rm -rf /)", "`id`", "a\nb", "'", "''", "*", "~/x", "$HOME", "a\\b", "-n", '"q"', "é ü"]) {
      expect(echoed(shellQuote(word))).toBe(`${word}\n`);
    }
  });

  it("refuses NUL bytes", () => {
    expect(() => shellQuote("a\0b")).toThrow(/NUL/);
  });
});

describe("shellPath", () => {
  it("expands a leading ~/ through $HOME and quotes the rest", () => {
    expect(echoed(shellPath("~/.benchwright/a b/it's"))).toBe("/home/x/.benchwright/a b/it's\n");
    expect(echoed(shellPath("~"))).toBe("/home/x\n");
    expect(echoed(shellPath("/tmp/~/$x"))).toBe("/tmp/~/$x\n");
  });
});
