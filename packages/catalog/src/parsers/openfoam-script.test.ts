import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadCatalog } from "../catalog.js";
import { paramEnv } from "../params.js";
import { recordedOutput } from "./recorded-output.js";

// OpenFOAM's workloads report through keyvalue: their script reads blockMesh's and the solver's
// logs. Here both commands are stubs that print the logs of a real pitzDaily run (simpleFoam,
// 100 iterations, recorded on Debian 12's openfoam), and the workload's script runs for real.
const catalog = loadCatalog();
const { fixture } = recordedOutput("openfoam");
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function replay(solverLog: string) {
  const dir = mkdtempSync(join(tmpdir(), "bw-foam-"));
  dirs.push(dir);
  const bin = join(dir, "bin");
  const examples = join(dir, "examples");
  mkdirSync(bin);
  mkdirSync(join(examples, "incompressible/simpleFoam/pitzDaily/system"), { recursive: true });
  writeFileSync(join(dir, "blockMesh.txt"), fixture("pitzdaily.blockMesh"));
  writeFileSync(join(dir, "solver.txt"), solverLog);
  const stubs = { blockMesh: `cat '${dir}/blockMesh.txt'`, simpleFoam: `cat '${dir}/solver.txt'`, foamDictionary: "true" };
  for (const [command, body] of Object.entries(stubs)) {
    writeFileSync(join(bin, command), `#!/usr/bin/env bash\n${body}\n`);
    chmodSync(join(bin, command), 0o755);
  }
  const script = catalog.runScript("openfoam", "pitzdaily", { platform: "debian_12", allowInstall: false });
  const env = { ...process.env, ...paramEnv(catalog.params("openfoam", "pitzdaily").values), PATH: `${bin}:${process.env.PATH}`, BW_FOAM_EXAMPLES: examples };
  const work = join(dir, "work");
  mkdirSync(work);
  return spawnSync("bash", ["-c", script], { cwd: work, env, encoding: "utf8", timeout: 30_000 });
}

describe("OpenFOAM's run script, replayed on a recorded run", () => {
  it("reads the mesh's cells, the iterations and the solver's CPU time, and rates the work by the wall time", () => {
    const r = replay(fixture("pitzdaily.solver"));
    expect(r.status, r.stderr).toBe(0);
    const metrics = catalog.parse("openfoam", "pitzdaily", r.stdout);
    const by = Object.fromEntries(metrics.map((m) => [m.name, m]));
    const tags = { solver: "simpleFoam", cells: "12225" };
    expect(by.time_steps).toEqual({ name: "time_steps", value: 100, unit: "steps", tags, better: "higher" });
    expect(by.cpu_seconds).toEqual({ name: "cpu_seconds", value: 2.13, unit: "s", tags, better: "lower" });
    const wall = by.wall_seconds!.value;
    expect(wall).toBeGreaterThanOrEqual(0);
    if (wall > 0) expect(by.cell_steps_per_second!.value).toBeCloseTo((12225 * 100) / wall, -1);
    for (const m of metrics) expect(catalog.tool("openfoam")!.metrics![m.name]?.unit, m.name).toBe(m.unit);
  });

  it("fails when the solver did not reach its end", () => {
    const cut = fixture("pitzdaily.solver").split("\nEnd\n")[0]!;
    const r = replay(cut);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain("simpleFoam did not run to its end");
  });
});
