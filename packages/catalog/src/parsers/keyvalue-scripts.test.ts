import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadCatalog } from "../catalog.js";
import { paramEnv } from "../params.js";

// The tools below report through the keyvalue parser: their run scripts read the tool's output
// (awk in the definition's `lib`) and print BW_METRIC lines. Each fixture is a real run's output
// (scripts/record-fixtures.mjs): the tool's own lines, then the BW_METRIC lines the script made
// of them. Here the tool is replaced by a stub that prints those recorded lines again, the
// workload's run script runs for real, and it must make the same figures of them.

const FIXTURES = new URL("./fixtures/", import.meta.url);
const catalog = loadCatalog();

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

type Stub = (raw: string) => Record<string, string>;

/** The command prints the recorded lines on stdout (or stderr). */
const prints =
  (command: string, fd: 1 | 2 = 1): Stub =>
  (raw) => ({ [command]: `cat '${raw}'${fd === 2 ? " >&2" : ""}` });

// qperf runs a server (`--listen_port <port>`) the script waits for, then the client (host last).
const qperf: Stub = (raw) => ({
  qperf: [
    'case " $* " in',
    `  *" 127.0.0.1 "*) cat '${raw}' ;;`,
    `  *) exec '${process.execPath}' -e "require('net').createServer().listen(+process.argv[1], '127.0.0.1')" "$2" ;;`,
    "esac",
  ].join("\n"),
});

// hpcc writes its report to hpccoutf.txt in the working directory; the script reads that.
const hpcc: Stub = (raw) => ({ mpirun: `cp '${raw}' hpccoutf.txt` });

/** Recorded run, its stub, the parameters it was recorded with where they depend on the machine, and one figure spelled out. */
const CASES: Array<{ run: string; stub: Stub; params?: Record<string, unknown>; example: object }> = [
  {
    run: "ioping/read_random",
    stub: prints("ioping"),
    example: { name: "iops", value: 15325, unit: "IO/s", tags: { mode: "random_read", request_size: "4k" } },
  },
  { run: "ioping/read_sequential", stub: prints("ioping"), example: { name: "bandwidth", value: 46.609, unit: "MiB/s" } },
  { run: "ioping/read_direct", stub: prints("ioping"), example: { name: "iops", value: 17054, unit: "IO/s" } },
  { run: "ioping/write_random", stub: prints("ioping"), example: { name: "iops", value: 9060, unit: "IO/s" } },
  {
    run: "john/descrypt",
    stub: prints("john"),
    example: { name: "crypts_per_second", value: 2375000, unit: "c/s", tags: { format: "descrypt", salts: "many", threads: "0" } },
  },
  { run: "john/md5crypt", stub: prints("john"), example: { name: "crypts_per_second", value: 16896, unit: "c/s" } },
  { run: "john/bcrypt", stub: prints("john"), example: { name: "crypts_per_cpu_second", value: 1083, unit: "c/s" } },
  { run: "john/lm", stub: prints("john"), example: { name: "crypts_per_second", value: 10428000, unit: "c/s" } },
  {
    run: "qperf/tcp_lat",
    stub: qperf,
    example: { name: "latency_us", value: 7.447, unit: "us", tags: { test: "tcp_lat", message_size: "1" } },
  },
  { run: "qperf/udp_lat", stub: qperf, example: { name: "latency_us", value: 6.171, unit: "us" } },
  { run: "qperf/tcp_bw", stub: qperf, example: { name: "bandwidth", value: 2765.849, unit: "MB/s" } },
  { run: "qperf/udp_bw", stub: qperf, example: { name: "recv_bandwidth", value: 178.726, unit: "MB/s" } },
  {
    run: "cryptsetup/pbkdf2_sha256",
    stub: prints("cryptsetup"),
    example: { name: "iterations_per_second", value: 4415056, unit: "iterations/s" },
  },
  {
    run: "cryptsetup/pbkdf2_sha512",
    stub: prints("cryptsetup"),
    example: { name: "iterations_per_second", value: 1997287, unit: "iterations/s" },
  },
  {
    run: "cryptsetup/argon2id",
    stub: prints("cryptsetup"),
    example: { name: "time_cost", value: 25, unit: "iterations", tags: { kdf: "argon2id", threads: "4" } },
  },
  { run: "stockfish/single_thread", stub: prints("stockfish", 2), example: { name: "nodes", value: 1541221, unit: "nodes" } },
  {
    run: "stockfish/multi_thread",
    stub: prints("stockfish", 2),
    params: { threads: 2 },
    example: { name: "search_seconds", value: 0.93, unit: "s" },
  },
  { run: "primesieve/single_thread", stub: prints("primesieve"), example: { name: "sieve_seconds", value: 1.103, unit: "s" } },
  {
    run: "primesieve/multi_thread",
    stub: prints("primesieve"),
    params: { threads: 2 },
    example: { name: "numbers_per_second", value: 16260162602, unit: "numbers/s" },
  },
  {
    run: "hpcc/single_process",
    stub: hpcc,
    example: { name: "hpl_gflops", value: 5.18365, unit: "GFLOPS", tags: { processes: "1", n: "1000" } },
  },
  { run: "hpcc/all_processes", stub: hpcc, params: { processes: 2 }, example: { name: "hpl_seconds", value: 0.0771062, unit: "s" } },
  { run: "bonnie/block_io", stub: prints("bonnie++"), example: { name: "block_write", value: 867961, unit: "KiB/s" } },
  { run: "bonnie/file_ops", stub: prints("bonnie++"), example: { name: "random_create", value: 17409, unit: "files/s" } },
];

describe("the keyvalue tools' scripts, replayed on recorded output", () => {
  it.each(CASES)("$run: the same figures, every one declared", ({ run, stub, params, example }) => {
    const [tool, workload] = run.split("/") as [string, string];
    const recorded = readFileSync(new URL(`${run}.txt`, FIXTURES), "utf8");
    const dir = mkdtempSync(join(tmpdir(), "bw-replay-"));
    dirs.push(dir);
    const raw = join(dir, "raw.txt");
    writeFileSync(
      raw,
      recorded
        .split("\n")
        .filter((l) => !l.startsWith("BW_METRIC "))
        .join("\n"),
    );
    for (const [command, body] of Object.entries(stub(raw))) {
      writeFileSync(join(dir, command), `#!/usr/bin/env bash\n${body}\n`);
      chmodSync(join(dir, command), 0o755);
    }
    const resolved = catalog.params(tool, workload, params ?? {});
    expect(resolved.problems).toEqual([]);
    const cwd = mkdtempSync(join(tmpdir(), "bw-replay-cwd-"));
    dirs.push(cwd);
    const r = spawnSync("bash", ["-c", catalog.runScript(tool, workload, { platform: "debian_12", allowInstall: false })], {
      cwd,
      encoding: "utf8",
      timeout: 30_000,
      env: { ...process.env, PATH: `${dir}:${process.env.PATH}`, ...paramEnv(resolved.values) },
    });
    expect(r.status, r.stderr).toBe(0);
    const expected = catalog.parse(tool, workload, recorded);
    expect(expected.length).toBeGreaterThan(0);
    expect(catalog.parse(tool, workload, r.stdout)).toEqual(expected);
    expect(expected).toContainEqual(expect.objectContaining(example));
    const declared = catalog.tool(tool)!.metrics!;
    for (const m of expected) {
      expect(declared[m.name], `${run}: ${m.name}`).toMatchObject({ unit: m.unit });
      expect(m.value, `${run}: ${m.name}`).toBeGreaterThan(0);
    }
  });

  it("fails a run whose tool printed nothing it knows", () => {
    const dir = mkdtempSync(join(tmpdir(), "bw-replay-"));
    dirs.push(dir);
    for (const command of ["john", "cryptsetup", "primesieve", "bonnie++"]) {
      writeFileSync(join(dir, command), "#!/usr/bin/env bash\necho 'something else entirely'\n");
      chmodSync(join(dir, command), 0o755);
    }
    for (const [tool, workload] of [
      ["john", "md5crypt"],
      ["cryptsetup", "pbkdf2_sha256"],
      ["primesieve", "single_thread"],
      ["bonnie", "file_ops"],
    ] as const) {
      const r = spawnSync("bash", ["-c", catalog.runScript(tool, workload, { platform: "debian_12", allowInstall: false })], {
        cwd: dir,
        encoding: "utf8",
        timeout: 30_000,
        env: { ...process.env, PATH: `${dir}:${process.env.PATH}`, ...paramEnv(catalog.params(tool, workload, {}).values) },
      });
      expect(r.status, `${tool}/${workload}`).not.toBe(0);
      expect(catalog.parse(tool, workload, r.stdout), `${tool}/${workload}`).toEqual([]);
    }
  });
});
