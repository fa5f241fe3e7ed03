import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { ExitCode } from "../exit-codes.js";
import { main } from "../program.js";

// `benchwright benchmark validate` needs no server: the catalogue's own check, here.
describe("benchwright benchmark validate", () => {
  const dir = mkdtempSync(join(tmpdir(), "bw-benchmark-validate-"));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const good =
    "id: team-echo\ntool_name: Echo\nparser: keyvalue\nmetrics:\n  answer: {unit: '1', better: higher}\nworkloads:\n  - id: answer\n    scripts:\n      run: bw_metric answer 42 1\n";

  it("exits 0 for a definition the catalogue takes", async () => {
    const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    try {
      expect(await main(["benchmark", "validate", file("good.yaml", good), "--url", "http://127.0.0.1:9"])).toBe(ExitCode.ok);
    } finally {
      out.mockRestore();
    }
  });

  it("exits 2 listing every problem at its JSON Pointer", async () => {
    const bad =
      good.replace("parser: keyvalue", "parser: nope").replace("{unit: '1', better: higher}", "{better: higher}") +
      "  - id: answer\n    scripts:\n      run: 'if then ('\n";
    const said: string[] = [];
    const err = vi.spyOn(process.stderr, "write").mockImplementation((s) => said.push(String(s)) > 0);
    try {
      expect(await main(["benchmark", "validate", file("bad.yaml", bad)])).toBe(ExitCode.usage);
    } finally {
      err.mockRestore();
    }
    const text = said.join("");
    for (const pointer of ["/parser:", "/metrics/answer/unit:", "/workloads/1/id:", "/workloads/1/scripts/run:"]) expect(text).toContain(pointer);
  });
});
