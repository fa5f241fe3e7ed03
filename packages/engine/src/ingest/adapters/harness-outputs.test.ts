import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADAPTERS } from "./index.js";
import { FileProblems } from "./measures.js";

const run = promisify(execFile);

/**
 * Each adapter reads the real output of its real tool, made here (Debian's hyperfine,
 * libbenchmark-dev with g++, python3-pytest-benchmark and golang; .ci/run installs them).
 */
describe("harness outputs", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "bw-harness-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reads hyperfine's --export-json: each command's run times, in seconds, lower is better", async () => {
    const out = join(dir, "hyperfine.json");
    // No shell (-N): through one, hyperfine subtracts the shell's start, as it measured it, from every run,
    // and a run of the 50 ms sleep came out at 49.6 ms.
    await run("hyperfine", ["-N", "--runs", "5", "--warmup", "1", "--export-json", out, "sleep 0.01", "sleep 0.05"]);
    const measures = ADAPTERS.hyperfine(await readFile(out, "utf8"));
    expect(measures.map((m) => m.metric)).toEqual(["sleep 0.01", "sleep 0.05"]);
    for (const m of measures) expect(m).toMatchObject({ unit: "s", better: "lower" });
    expect(measures[0].values).toHaveLength(5);
    expect(Math.min(...measures[0].values!)).toBeGreaterThan(0);
    // In seconds: no run of a 50 ms sleep is shorter (a comparison of the two means failed under load).
    expect(Math.min(...measures[1].values!)).toBeGreaterThanOrEqual(0.05);
  }, 60_000);

  it("reads Google Benchmark's JSON: each benchmark's repetitions' real_time, without its aggregates", async () => {
    await writeFile(
      join(dir, "bench.cc"),
      `#include <benchmark/benchmark.h>
#include <string>
static void BM_StringCreation(benchmark::State& state) { for (auto _ : state) { std::string s("hello"); benchmark::DoNotOptimize(s); } }
BENCHMARK(BM_StringCreation);
static void BM_StringCopy(benchmark::State& state) { std::string x = "hello"; for (auto _ : state) { std::string c(x); benchmark::DoNotOptimize(c); } }
BENCHMARK(BM_StringCopy);
BENCHMARK_MAIN();
`,
    );
    await run("g++", ["-O2", "-o", join(dir, "bench"), join(dir, "bench.cc"), "-lbenchmark", "-lpthread"], { cwd: dir });
    const { stdout } = await run(join(dir, "bench"), ["--benchmark_format=json", "--benchmark_repetitions=3", "--benchmark_min_time=0.01"]);
    const measures = ADAPTERS.google_benchmark(stdout);
    expect(measures.map((m) => m.metric)).toEqual(["BM_StringCreation", "BM_StringCopy"]);
    for (const m of measures) {
      expect(m).toMatchObject({ unit: "ns", better: "lower" });
      expect(m.values).toHaveLength(3);
    }
  }, 120_000);

  it("reads pytest-benchmark's --benchmark-json: each test's rounds, or its mean, spread and rounds without them", async () => {
    await writeFile(
      join(dir, "test_sorting.py"),
      `def test_sort(benchmark):
    benchmark(sorted, list(range(2000, 0, -1)))

def test_sum(benchmark):
    benchmark(sum, range(1000))
`,
    );
    const out = join(dir, "pytest.json");
    // Five rounds each (no time budget to fill, 1 s per test by default): the file's shape is the point, not the figures.
    await run(
      "/usr/bin/python3",
      ["-m", "pytest", "-q", "-p", "no:cacheprovider", "test_sorting.py", `--benchmark-json=${out}`, "--benchmark-min-rounds=5", "--benchmark-max-time=0"],
      {
        cwd: dir,
      },
    );
    const text = await readFile(out, "utf8");
    const measures = ADAPTERS.pytest_benchmark(text);
    expect(measures.map((m) => m.metric)).toEqual(["test_sorting.py::test_sort", "test_sorting.py::test_sum"]);
    for (const m of measures) {
      expect(m).toMatchObject({ unit: "s", better: "lower" });
      expect(m.values!.length).toBeGreaterThanOrEqual(5);
    }
    // A file written without the rounds' times (older versions, or data removed): the plugin's summary.
    const doc = JSON.parse(text) as { benchmarks: Array<{ stats: { data?: number[]; rounds: number; mean: number } }> };
    for (const b of doc.benchmarks) delete b.stats.data;
    const summarised = ADAPTERS.pytest_benchmark(JSON.stringify(doc));
    expect(summarised[0].summary).toMatchObject({ n: doc.benchmarks[0].stats.rounds, mean: doc.benchmarks[0].stats.mean });
  }, 120_000);

  it("reads go test -bench text: ns/op per benchmark, B/op and allocs/op tagged, -count lines as the sample", async () => {
    const mod = join(dir, "gobench");
    await run("mkdir", ["-p", mod]);
    await writeFile(join(mod, "go.mod"), "module example.com/gobench\n\ngo 1.19\n");
    await writeFile(
      join(mod, "fib_test.go"),
      `package gobench

import "testing"

func fib(n int) int { if n < 2 { return n }; return fib(n-1) + fib(n-2) }

func BenchmarkFib10(b *testing.B) { for i := 0; i < b.N; i++ { fib(10) } }

func BenchmarkAlloc(b *testing.B) { for i := 0; i < b.N; i++ { _ = make([]byte, 64) } }
`,
    );
    const env = { ...process.env, GOCACHE: join(dir, "gocache"), GOPATH: join(dir, "gopath"), GOFLAGS: "-mod=mod", GOPROXY: "off" };
    // Without vet, which go test runs first by default: most of the CPU of building a test binary from a cold cache.
    const { stdout } = await run("go", ["test", "-vet=off", "-bench", ".", "-run", "^$", "-count", "3", "-benchmem", "-benchtime", "2000x"], { cwd: mod, env });
    const measures = ADAPTERS.go_test(stdout);
    const fib = measures.find((m) => m.metric === "BenchmarkFib10" && m.unit === "ns/op");
    expect(fib).toMatchObject({ better: "lower", tags: { pkg: "example.com/gobench" } });
    expect(fib!.values).toHaveLength(3);
    expect(measures.find((m) => m.metric === "BenchmarkAlloc" && m.unit === "B/op")?.tags).toMatchObject({ unit: "B/op" });
  }, 180_000);

  it("names where a bad file is wrong: a JSON Pointer into it, or its line", () => {
    const problems = (adapter: string, text: string) => {
      try {
        ADAPTERS[adapter](text);
      } catch (e) {
        if (e instanceof FileProblems) return e.problems;
        throw e;
      }
      throw new Error("no problem found");
    };
    expect(problems("hyperfine", '{"results": [{"command": "a", "times": [0.1, "x"]}]}')).toEqual([
      { where: "/results/0/times/1", message: "must be a finite number" },
    ]);
    expect(problems("google_benchmark", '{"benchmarks": [{"name": "BM_a", "run_type": "iteration"}]}')).toEqual([
      { where: "/benchmarks/0/real_time", message: "must be a finite number" },
    ]);
    expect(problems("pytest_benchmark", '{"benchmarks": [{"fullname": "t::a", "stats": {"mean": 1, "stddev": 0}}]}')).toEqual([
      { where: "/benchmarks/0/stats/rounds", message: "must be a finite number" },
    ]);
    expect(problems("go_test", "goos: linux\nBenchmarkA-2   100   12 ns/op\nBenchmarkB-2   100   fast ns/op\n")).toEqual([
      { where: "line 3", message: "does not read as a benchmark's result: BenchmarkB-2   100   fast ns/op" },
    ]);
    expect(problems("generic", '[{"metric": "m", "value": 1, "better": "up"}]')).toEqual([{ where: "/0/better", message: "must be higher or lower" }]);
    expect(problems("generic", '[\n  {"metric": "m",\n  "value": }\n]')).toEqual([{ where: "line 3", message: "is not JSON: ValueExpected at column 12" }]);
  });
});
