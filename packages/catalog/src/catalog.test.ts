import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadCatalog } from "./catalog.js";
import { readDefinition } from "./check-definition.js";
import { CatalogError } from "./errors.js";

const BUILTIN = {
  idle: ["idle0", "idle5", "idle30", "idle60", "failing"],
  sysbench: [
    "cpu_10000",
    "memory",
    "fileio",
    "threads",
    "mutex",
    "memory_read",
    "fileio_seqwr",
    "fileio_seqrd",
    "oltp_read_write",
    "oltp_read_only",
    "oltp_point_select",
  ],
  fio: ["randread", "randwrite", "seqread", "seqwrite", "randrw", "randread_qd1", "randwrite_qd1_sync"],
  iperf: ["tcp_10_1", "tcp_10_4", "tcp_10_1_reverse"],
  iperf3: ["tcp_10_1", "tcp_10_10", "udp_10_1_1"],
  wrk: ["small_c16", "small_c128", "file_64k_c16"],
  openfoam: ["cavity", "pitzdaily"],
  "stress-ng": ["cpu", "vm", "cpu_int64", "cpu_float64", "cpu_matrixprod", "matrix", "hash", "memcpy", "malloc", "cache", "switch", "pipe", "fork"],
  "redis-benchmark": ["set", "get", "incr", "lpush", "lpop", "mset"],
  pgbench: ["select_only", "tpcb_like"],
  "7zip": ["single_thread", "multi_thread"],
  openssl: ["sha256", "sha512", "aes_256_gcm", "chacha20_poly1305", "rsa2048", "ecdsa_p256", "ed25519"],
  compression: [
    "zstd_compress",
    "zstd_decompress",
    "xz_compress",
    "xz_decompress",
    "gzip_compress",
    "pigz_compress",
    "lz4_compress",
    "lz4_decompress",
    "bzip2_compress",
    "brotli_compress",
  ],
  mbw: ["memcpy", "dumb", "mcblock"],
  dbench: ["clients_1", "clients_4"],
  sockperf: ["tcp_latency", "udp_latency", "tcp_throughput", "udp_throughput"],
  ffmpeg: ["x264_720p", "x264_1080p", "x265_720p"],
  ioping: ["read_random", "read_sequential", "read_direct", "write_random"],
  john: ["descrypt", "md5crypt", "bcrypt", "lm"],
  qperf: ["tcp_lat", "udp_lat", "tcp_bw", "udp_bw"],
  cryptsetup: ["pbkdf2_sha256", "pbkdf2_sha512", "argon2id"],
  stockfish: ["single_thread", "multi_thread"],
  primesieve: ["single_thread", "multi_thread"],
  hpcc: ["single_process", "all_processes"],
  bonnie: ["block_io", "file_ops"],
};
const PLATFORMS = ["debian_12", "ubuntu_22_04", "centos_9", "rhel_8", "", "alpine_3"];
const debian = { platform: "debian_12", allowInstall: false };

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "bw-catalog-test-"));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const execFileAsync = promisify(execFile);

function bash(script: string, args: string[] = []) {
  return spawnSync("bash", [...args, "-c", script], { cwd: tempDir(), encoding: "utf8", timeout: 30_000 });
}

/** Loads a dir of extra definitions; returns what was left out, by message, and the catalog. */
function loadReporting(dir: string) {
  const errors: CatalogError[] = [];
  const catalog = loadCatalog({ extraDirs: [dir], onError: (_file, e) => errors.push(e) });
  return { catalog, errors, messages: errors.map((e) => e.message).join("\n") };
}

const MINIMAL = (id: string, extra = "") => `
id: ${id}
tool_name: My ${id}
parser: keyvalue
${extra}
workloads:
  - id: one
    scripts:
      run: echo "BW_METRIC answer 42 units"
`;

describe("loadCatalog, built-in tools", () => {
  const catalog = loadCatalog();

  it("has exactly the built-in tools and workloads", () => {
    const ids = Object.fromEntries(catalog.tools().map((t) => [t.id, t.workloads.map((w) => w.id)]));
    expect(ids).toEqual(BUILTIN);
    for (const t of catalog.tools()) {
      expect(t.source).toMatch(new RegExp(`tools/${t.id}/definition\\.yaml$`));
      for (const w of t.workloads) expect(w.categories.length).toBeGreaterThan(0);
    }
  });

  /** Each role of a workload with roles; one script (no role) for the others. */
  const rolesOf = (tool: string, workload: string) => Object.keys(catalog.workload(tool, workload)?.roles ?? { "": 0 });

  it("builds scripts that pass bash -n for every workload and platform", async () => {
    // Over a thousand scripts, many the same text: each distinct one is checked by its own
    // `bash -n`, all forked by one bash (a node spawn per script cost ~45 CPU s).
    const labels = new Map<string, string>();
    for (const [tool, workloads] of Object.entries(BUILTIN)) {
      for (const workload of workloads) {
        for (const platform of PLATFORMS) {
          for (const [allowInstall, role] of [true, false].flatMap((a) => rolesOf(tool, workload).map((r) => [a, r] as const))) {
            const opts = { platform, allowInstall, ...(role ? { role } : {}) };
            for (const script of [catalog.prepareScript(tool, workload, opts), catalog.runScript(tool, workload, opts)]) {
              expect(script.startsWith("#!/usr/bin/env bash\n")).toBe(true);
              expect(script).toContain("set -euo pipefail");
              if (!labels.has(script)) labels.set(script, `${tool}/${workload} on '${platform}'`);
            }
          }
        }
      }
    }
    const dir = tempDir();
    const files = [...labels.keys()].map((script, i) => {
      const file = join(dir, `${i}.sh`);
      writeFileSync(file, script);
      return file;
    });
    // Asynchronously: a worker blocked for the whole check misses vitest's own calls under load.
    await execFileAsync("bash", ["-c", 'for f; do bash -n "$f" 2> "$f.err"; echo $? > "$f.rc"; done', "bash", ...files], { timeout: 110_000 });
    [...labels.values()].forEach((label, i) => {
      expect(readFileSync(`${files[i]}.err`, "utf8"), label).toBe("");
      expect(readFileSync(`${files[i]}.rc`, "utf8").trim(), label).toBe("0");
    });
  }, 120_000);

  it("picks the install script by platform", () => {
    const on = (platform: string) => catalog.prepareScript("sysbench", "cpu_10000", { platform, allowInstall: true });
    expect(on("debian_12")).toContain("bw_apt_install sysbench");
    expect(on("centos_9")).toContain("bw_dnf_install_epel sysbench");
    expect(on("alpine_3")).toContain("bw_install sysbench");
    expect(on("debian_12")).toMatch(/^export BW_ALLOW_INSTALL=1$/m);
    expect(catalog.prepareScript("sysbench", "cpu_10000", debian)).toMatch(/^export BW_ALLOW_INSTALL=0$/m);
    expect(catalog.prepareScript("idle", "idle0", debian)).not.toContain("bw_check");
  });

  it("gives step timeouts, the workload's own first", () => {
    expect(catalog.timeouts("sysbench", "cpu_10000")).toEqual({ prepare: 900, run: 600 });
    expect(catalog.timeouts("idle", "idle60")).toEqual({ prepare: 60, run: 180 });
  });

  it("rejects unknown tools and workloads with the valid choices", () => {
    expect(catalog.tool("nope")).toBeUndefined();
    expect(catalog.workload("sysbench", "nope")).toBeUndefined();
    expect(() => catalog.runScript("sysbenc", "cpu_10000", debian)).toThrow(
      expect.objectContaining({ code: "unknown_tool", choices: Object.keys(BUILTIN).sort() }),
    );
    expect(() => catalog.timeouts("idle", "idle1")).toThrow(expect.objectContaining({ code: "unknown_workload" }));
  });

  it("runs idle0 and parses idle_seconds from its output", () => {
    const r = bash(catalog.runScript("idle", "idle0", debian));
    expect(r.status).toBe(0);
    const metrics = catalog.parse("idle", "idle0", r.stdout);
    expect(metrics).toHaveLength(1);
    expect(metrics[0]).toMatchObject({ name: "idle_seconds", unit: "s" });
    expect(metrics[0]!.value).toBeGreaterThanOrEqual(0);
    expect(metrics[0]!.value).toBeLessThan(1);
  });

  it("runs failing, which exits 3 with no metrics", () => {
    const r = bash(catalog.runScript("idle", "failing", debian));
    expect(r.status).toBe(3);
    expect(r.stdout).toContain("fails on purpose");
    expect(catalog.parse("idle", "failing", r.stdout)).toEqual([]);
  });

  it("skips the install when the tool is already there", () => {
    // The machine may not have sysbench (a new CI machine does not): a stand-in on PATH
    // answers the check, which is all this test is about.
    const bin = tempDir();
    writeFileSync(join(bin, "sysbench"), "#!/bin/sh\necho 'sysbench 1.0.20'\n", { mode: 0o755 });
    const r = spawnSync("bash", ["-c", catalog.prepareScript("sysbench", "cpu_10000", debian)], {
      cwd: tempDir(),
      encoding: "utf8",
      timeout: 30_000,
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
    });
    expect(r.status).toBe(0);
    expect(r.stderr).toContain("sysbench is already installed");
  });
});

describe("tool aliases", () => {
  it("answers the Benchmarking Suite's `testing` with idle and its workloads, listing idle once", () => {
    const catalog = loadCatalog();
    expect(catalog.tool("testing")).toBe(catalog.tool("idle"));
    expect(catalog.tool("idle")?.aliases).toEqual(["testing"]);
    // testing.conf's workloads: idle5, idle30, idle60, failing.
    for (const w of ["idle5", "idle30", "idle60", "failing"]) expect(catalog.workload("testing", w)).toBe(catalog.workload("idle", w));
    expect(catalog.runScript("testing", "idle5", debian)).toBe(catalog.runScript("idle", "idle5", debian));
    expect(catalog.timeouts("testing", "idle60")).toEqual(catalog.timeouts("idle", "idle60"));
    expect(catalog.tools().filter((t) => t.id === "testing" || t.aliases?.includes("testing"))).toHaveLength(1);
  });

  it("lets a definition dropped in under an alias's name win over the alias", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "testing.yaml"), MINIMAL("testing"));
    const catalog = loadCatalog({ extraDirs: [dir] });
    expect(catalog.tool("testing")?.source).toBe(join(dir, "testing.yaml"));
    expect(catalog.tool("idle")?.id).toBe("idle");
  });

  it("keeps a built-in's alias when a definition written through the API claims it too", () => {
    const team = readDefinition(parse(MINIMAL("team-idle", "aliases: [testing, team-alias]")), "api:team-idle@1");
    const catalog = loadCatalog({ definitions: [team] });
    expect(catalog.tool("testing")?.id).toBe("idle");
    expect(catalog.tool("team-alias")).toBe(team);
  });

  it("refuses aliases that are not ids, or the tool's own id", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a.yaml"), MINIMAL("a", "aliases: [a]"));
    writeFileSync(join(dir, "b.yaml"), MINIMAL("b", "aliases: ['no way']"));
    const { catalog, messages } = loadReporting(dir);
    expect(messages).toMatch(/a\.yaml: invalid definition:\n {2}aliases: must be a list of valid ids/);
    expect(messages).toMatch(/b\.yaml: invalid definition:\n {2}aliases: must be a list of valid ids/);
    expect(catalog.tool("a")).toBeUndefined();
  });
});

describe("loadCatalog, extra definitions", () => {
  it("adds definitions from extra dirs and skips missing dirs", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "mine.yml"), MINIMAL("mine"));
    writeFileSync(join(dir, "notes.txt"), "not a definition");
    const catalog = loadCatalog({ extraDirs: [join(dir, "missing"), dir] });
    expect(catalog.tool("mine")).toMatchObject({ tool_name: "My mine", timeout: { prepare: 900, run: 600 } });
    expect(catalog.workload("mine", "one")).toMatchObject({ workload_name: "one", categories: [] });
    expect(catalog.tool("sysbench")).toBeDefined();
    const r = bash(catalog.runScript("mine", "one", debian));
    expect(catalog.parse("mine", "one", r.stdout)).toEqual([{ name: "answer", value: 42, unit: "units" }]);
  });

  it("replaces a built-in tool with the same id", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "sysbench.yaml"), MINIMAL("sysbench"));
    const catalog = loadCatalog({ extraDirs: [dir] });
    expect(catalog.tool("sysbench")?.source).toBe(join(dir, "sysbench.yaml"));
    expect(catalog.tool("sysbench")?.workloads.map((w) => w.id)).toEqual(["one"]);
    expect(catalog.tools()).toHaveLength(Object.keys(BUILTIN).length);
  });

  it("names the file of a broken definition", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "broken.yaml"), "id: [unclosed\n");
    expect(loadReporting(dir).messages).toMatch(/broken\.yaml: not valid YAML/);
  });

  it("lists every problem of a definition", () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "bad.yaml"),
      `id: "bad id!"\nparser: nosuch\ntimeout: { run: -1 }\nscripts: { instal_debian: x, version: [1], versions: x }\nworkloads:\n  - id: w\n    scripts: { prepare: x }\n`,
    );
    const { errors } = loadReporting(dir);
    expect(errors).toHaveLength(1);
    const error = errors[0];
    expect(error).toBeInstanceOf(CatalogError);
    const message = (error as CatalogError).message;
    expect((error as CatalogError).file).toBe(join(dir, "bad.yaml"));
    expect(message).toContain("bad.yaml");
    expect(message).toContain("id: 'bad id!' is not a valid id");
    expect(message).toContain("tool_name: is missing");
    expect(message).toContain("unknown parser 'nosuch'");
    expect(message).toContain("timeout.run: must be a positive number");
    expect(message).toContain("scripts.instal_debian: is not a known script name");
    expect(message).toContain("scripts.version: must be a string");
    expect(message).toContain("scripts.versions: is not a known script name");
    expect(message).toContain("workloads[0].scripts.run: is missing");
  });

  it("rejects an unknown parser", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "p.yaml"), MINIMAL("p").replace("parser: keyvalue", "parser: csv"));
    expect(loadReporting(dir).messages).toMatch(/p\.yaml: .*\n.*parser: unknown parser 'csv'/);
  });

  it("rejects the second of two files with one id in the same dir", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a.yaml"), MINIMAL("dup"));
    writeFileSync(join(dir, "b.yaml"), MINIMAL("dup"));
    const { catalog, messages } = loadReporting(dir);
    expect(messages).toMatch(/b\.yaml: tool id 'dup' is already defined in .*a\.yaml/);
    expect(catalog.tool("dup")?.source).toBe(join(dir, "a.yaml"));
  });

  it("exits 100 instead of installing when installs are not allowed", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "absent.yaml"), MINIMAL("absent", "scripts:\n  check: command -v bw-absent-tool\n  install: bw_install bw-absent-tool"));
    const catalog = loadCatalog({ extraDirs: [dir] });
    const r = bash(catalog.prepareScript("absent", "one", debian));
    expect(r.status).toBe(100);
    expect(r.stderr).toContain(
      "bw-absent-tool is not installed on this host, and this service type does not allow installing system packages (set allow_install: true)",
    );
  });

  it("fails clearly when no install script fits the platform", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "deb.yaml"), MINIMAL("deb", "scripts:\n  check: 'false'\n  install_debian: 'true'"));
    const r = bash(loadCatalog({ extraDirs: [dir] }).prepareScript("deb", "one", { platform: "centos_9", allowInstall: true }));
    expect(r.status).toBe(101);
    expect(r.stderr).toContain("no install script for this platform");
  });

  it("runs the workload prepare script after the install", () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "prep.yaml"),
      MINIMAL("prep", "scripts:\n  check: 'true'\n  install: exit 7").replace(
        "run: echo",
        "prepare_debian: echo prepared-debian\n      prepare: echo prepared\n      run: echo",
      ),
    );
    const catalog = loadCatalog({ extraDirs: [dir] });
    expect(bash(catalog.prepareScript("prep", "one", debian)).stdout).toBe("prepared-debian\n");
    expect(bash(catalog.prepareScript("prep", "one", { platform: "centos", allowInstall: false })).stdout).toBe("prepared\n");
  });
});
