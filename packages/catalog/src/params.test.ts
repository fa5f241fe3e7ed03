import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadCatalog } from "./catalog.js";
import type { CatalogError } from "./errors.js";
import { MAX_STRING_PARAM, paramEnv, resolveParams } from "./params.js";
import type { ParamDeclaration } from "./types.js";

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "bw-params-"));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A catalog of the built-ins and one extra definition; what was left out, by message. */
function withDefinition(text: string) {
  const dir = tempDir();
  writeFileSync(join(dir, "mine.yaml"), text);
  const errors: CatalogError[] = [];
  const catalog = loadCatalog({ extraDirs: [dir], onError: (_f, e) => errors.push(e) });
  return { catalog, messages: errors.map((e) => e.message).join("\n") };
}

const mine = (toolParams: string, workloadParams: string) => `
id: mine
tool_name: Mine
parser: keyvalue
${toolParams}
workloads:
  - id: one
${workloadParams}
    scripts:
      run: echo "BW_METRIC answer 42 units"
  - id: two
    scripts:
      run: echo "BW_METRIC answer 42 units"
`;

const debian = { platform: "debian_12", allowInstall: false };

/** Runs a catalog script with the parameter values a run would get, and `bin` first on PATH. */
function run(script: string, values: Record<string, string | number | boolean>, bin?: string) {
  const env = { ...process.env, ...paramEnv(values), ...(bin ? { PATH: `${bin}:${process.env.PATH}` } : {}) };
  return spawnSync("bash", ["-c", script], { cwd: tempDir(), env, encoding: "utf8", timeout: 30_000 });
}

describe("parameters of the built-in workloads", () => {
  const catalog = loadCatalog();
  const defaults = (tool: string, workload: string) => catalog.params(tool, workload).values;

  it("default to what the workloads did before they had parameters", () => {
    expect(defaults("idle", "idle0")).toEqual({});
    expect(defaults("idle", "idle5")).toEqual({ seconds: 5 });
    expect(defaults("idle", "idle60")).toEqual({ seconds: 60 });
    expect(defaults("idle", "failing")).toEqual({});
    expect(defaults("sysbench", "cpu_10000")).toEqual({ threads: "1,2,4,8", events: 10000 });
    expect(defaults("sysbench", "memory")).toEqual({ duration: 2, threads: 1 });
    expect(defaults("sysbench", "fileio")).toEqual({ duration: 2, threads: 1 });
    expect(defaults("sysbench", "threads")).toEqual({ duration: 2, threads: 4 });
    for (const w of ["randread", "randwrite", "seqread", "seqwrite"]) expect(defaults("fio", w)).toEqual({ runtime: 3, size: 64 });
    for (const w of ["cpu", "vm"]) expect(defaults("stress-ng", w)).toEqual({ duration: 10 });
    for (const w of ["tcp_10_1", "tcp_10_10", "udp_10_1_1"]) expect(defaults("iperf3", w)).toEqual({ duration: 10 });
  });

  it("are read by every script that declares them, and only declared ones are", () => {
    for (const tool of catalog.tools()) {
      for (const w of tool.workloads) {
        // A workload with roles reads its parameters in one role's scripts or another's.
        const script = Object.keys(w.roles ?? { "": 0 })
          .map((role) => catalog.runScript(tool.id, w.id, { ...debian, ...(role ? { role } : {}) }))
          .join("\n");
        const read = new Set([...script.matchAll(/BW_PARAM_([A-Z0-9_]+)/g)].map((m) => m[1]!.toLowerCase()));
        expect([...read].sort(), `${tool.id}/${w.id}`).toEqual(Object.keys(w.params).sort());
      }
    }
  });

  it("sleep as long as idle's seconds say", () => {
    const r = run(catalog.runScript("idle", "idle5", debian), { seconds: 0.2 });
    expect(r.status, r.stderr).toBe(0);
    const seconds = Number(/^BW_METRIC idle_seconds ([\d.]+) s$/m.exec(r.stdout)![1]);
    expect(seconds).toBeGreaterThanOrEqual(0.2);
    expect(seconds).toBeLessThan(2);
  });

  it("run sysbench cpu_10000 at 1, 2, 4 and 8 threads by default, and at the counts given", () => {
    const bin = tempDir();
    // A stand-in that says how it was called: the sweep is the script's, not sysbench's.
    writeFileSync(join(bin, "sysbench"), '#!/bin/sh\necho "sysbench $*"\n');
    chmodSync(join(bin, "sysbench"), 0o755);
    const script = catalog.runScript("sysbench", "cpu_10000", debian);
    const sections = (threads: string, events = 10000) =>
      run(script, { threads, events: String(events) }, bin)
        .stdout.split("\n")
        .filter(Boolean);
    expect(sections(defaults("sysbench", "cpu_10000").threads as string)).toEqual(
      [1, 2, 4, 8].flatMap((t) => [`BW_SECTION threads=${t}`, `sysbench cpu --cpu-max-prime=20000 --events=10000 --time=0 --threads=${t} run`]),
    );
    expect(sections("16", 500)).toEqual(["BW_SECTION threads=16", "sysbench cpu --cpu-max-prime=20000 --events=500 --time=0 --threads=16 run"]);
  });

  it("refuse a thread list that is not one", () => {
    for (const threads of ["", "0", "1,", "1 2", "1;2", "$(id)", "12345"]) {
      expect(catalog.params("sysbench", "cpu_10000", { threads }).problems, threads).toHaveLength(1);
    }
  });
});

describe("resolveParams", () => {
  const declared: Record<string, ParamDeclaration> = {
    threads: { type: "integer", default: 4, min: 1, max: 64 },
    ratio: { type: "number", default: 0.5, min: 0, max: 1 },
    mode: { type: "string", default: "read", enum: ["read", "write"] },
    label: { type: "string", default: "" },
    direct: { type: "boolean", default: false },
  };

  it("fills in every default, and takes the values given over them", () => {
    expect(resolveParams(declared)).toEqual({ values: { threads: 4, ratio: 0.5, mode: "read", label: "", direct: false }, problems: [] });
    expect(resolveParams(declared, { threads: 64, ratio: 0, mode: "write", label: "$(x)", direct: true })).toEqual({
      values: { threads: 64, ratio: 0, mode: "write", label: "$(x)", direct: true },
      problems: [],
    });
  });

  it("lists every problem: unknown name, wrong type, out of bounds, not in the enum", () => {
    const { problems } = resolveParams(declared, {
      thread: 2,
      threads: "4",
      ratio: 1.5,
      mode: "append",
      label: "x".repeat(MAX_STRING_PARAM + 1),
      direct: "yes",
      __proto__: 1,
    } as Record<string, unknown>);
    expect(problems).toEqual([
      { name: "thread", message: "is not a parameter of this workload (it has: threads, ratio, mode, label, direct)" },
      { name: "threads", message: "must be an integer" },
      { name: "ratio", message: "must be at most 1" },
      { name: "mode", message: "must be one of: read, write" },
      { name: "label", message: `must be at most ${MAX_STRING_PARAM} characters` },
      { name: "direct", message: "must be a boolean" },
    ]);
    expect(resolveParams(declared, { threads: 0 }).problems).toEqual([{ name: "threads", message: "must be at least 1" }]);
    expect(resolveParams(declared, { threads: 2.5 }).problems).toEqual([{ name: "threads", message: "must be an integer" }]);
    expect(resolveParams(declared, { label: "a\0b" }).problems).toEqual([{ name: "label", message: "must not contain a NUL character" }]);
    expect(resolveParams({}, { x: 1 }).problems).toEqual([{ name: "x", message: "is not a parameter: this workload has none" }]);
  });

  it("names a parameter's variable after it, the value as text", () => {
    expect(paramEnv({ threads: 4, ratio: 0.5, direct: true, label: "it's" })).toEqual({
      BW_PARAM_THREADS: "4",
      BW_PARAM_RATIO: "0.5",
      BW_PARAM_DIRECT: "true",
      BW_PARAM_LABEL: "it's",
    });
  });
});

describe("parameter declarations", () => {
  it("are inherited from the tool, field by field where a workload changes one", () => {
    const { catalog, messages } = withDefinition(
      mine(
        'params:\n  duration: { type: integer, default: 10, min: 1, max: 60, unit: s, description: "How long" }',
        '    params:\n      duration: { default: 20 }\n      mode: { type: string, default: rw, enum: [r, w, rw] }\n      rate: { type: number, default: 0.5 }\n      on: { type: boolean, default: true }\n      tag: { type: string, default: "a-1", pattern: "^[a-z]-[0-9]$" }',
      ),
    );
    expect(messages).toBe("");
    expect(catalog.workload("mine", "one")!.params).toEqual({
      duration: { type: "integer", default: 20, min: 1, max: 60, unit: "s", description: "How long" },
      mode: { type: "string", default: "rw", enum: ["r", "w", "rw"] },
      rate: { type: "number", default: 0.5 },
      on: { type: "boolean", default: true },
      tag: { type: "string", default: "a-1", pattern: "^[a-z]-[0-9]$" },
    });
    expect(catalog.workload("mine", "two")!.params).toEqual({
      duration: { type: "integer", default: 10, min: 1, max: 60, unit: "s", description: "How long" },
    });
  });

  it("are checked when a definition is loaded: each problem named, the definition left out", () => {
    const { catalog, messages } = withDefinition(
      mine(
        "params:\n  Threads: { type: integer, default: 1 }\n  count: { type: integer, default: 1.5 }\n  size: { type: integer, default: 100, min: 1, max: 10 }",
        [
          "    params:",
          "      kind: { type: float, default: 1 }",
          "      mode: { type: string, default: x, enum: [a, b] }",
          "      text: { type: string, min: 1 }",
          "      flag: { type: boolean, default: 1, unit: 3 }",
          "      re: { type: string, default: a, pattern: '(' }",
          "      odd: { type: integer, default: 1, enum: [a], step: 2 }",
          "      plain: 3",
          "      span: { type: number, default: 1, min: 5, max: 2 }",
        ].join("\n"),
      ),
    );
    expect(catalog.tool("mine")).toBeUndefined();
    for (const problem of [
      "params.Threads: is not a valid parameter name",
      "params.count.default: must be an integer",
      "params.size.default: must be at most 10",
      "workloads[0].params.kind.type: must be one of: integer, number, string, boolean",
      "workloads[0].params.mode.default: must be one of: a, b",
      "workloads[0].params.text.min: is only for integer and number parameters",
      "workloads[0].params.text.default: is missing",
      "workloads[0].params.flag.unit: must be a string",
      "workloads[0].params.re.pattern: is not a valid regular expression",
      "workloads[0].params.odd.enum: is only for string parameters",
      "workloads[0].params.odd.step: is not one of type, default, min, max, enum, pattern, description, unit",
      "workloads[0].params.plain: must be a mapping",
      "workloads[0].params.span.min: is above max (2)",
    ]) {
      expect(messages).toContain(problem);
    }
    expect(messages).toContain("mine.yaml");
  });

  it("must be a mapping", () => {
    const { catalog, messages } = withDefinition(mine("params: [duration]", ""));
    expect(catalog.tool("mine")).toBeUndefined();
    expect(messages).toContain("params: must be a mapping of parameter names");
  });
});
