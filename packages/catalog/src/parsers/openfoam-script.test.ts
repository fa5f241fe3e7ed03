import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
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
  const env = {
    ...process.env,
    ...paramEnv(catalog.params("openfoam", "pitzdaily").values),
    PATH: `${bin}:${process.env.PATH}`,
    BW_FOAM_EXAMPLES: examples,
  };
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

describe("OpenFOAM's tutorials", () => {
  // Minimal and cloud images keep dpkg from installing /usr/share/doc, where openfoam-examples
  // puts them. This unpacks the real package (apt's cached copy, else one apt-get downloads).
  it("are unpacked from the package into ~/.benchwright when dpkg left them out, and found there", () => {
    const dir = mkdtempSync(join(tmpdir(), "bw-foam-unpack-"));
    dirs.push(dir);
    const prelude = readFileSync(fileURLToPath(new URL("../../tools/lib.sh", import.meta.url)), "utf8");
    const lib = catalog.tool("openfoam")!.scripts.lib!;
    const script = [prelude, lib, "bw_foam_examples && exit 3", "bw_foam_unpack_examples", "bw_foam_examples"].join("\n");
    const env = { ...process.env, HOME: dir, BW_FOAM_DOC: join(dir, "no-such-dir"), BW_ALLOW_INSTALL: "1" };
    delete (env as Record<string, string | undefined>).BW_FOAM_EXAMPLES;
    const r = spawnSync("bash", ["-c", script], { env, encoding: "utf8", timeout: 300_000 });
    expect(r.status, r.stderr).toBe(0);
    const found = r.stdout.trim();
    expect(found).toBe(join(dir, ".benchwright/openfoam-examples/usr/share/doc/openfoam-examples/examples"));
    expect(existsSync(join(found, "incompressible/icoFoam/cavity/cavity/system/blockMeshDict"))).toBe(true);
    expect(r.stderr).toContain("dpkg left them out");
  }, 300_000);
});
