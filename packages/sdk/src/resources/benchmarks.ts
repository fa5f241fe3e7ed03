import type { CallOptions, ClientContext } from "../client-context.js";
import type { Benchmark } from "../types.js";

export interface BenchmarksMethods {
  listBenchmarks(options?: CallOptions): Promise<Benchmark[]>;
  getBenchmark(benchmarkId: string, options?: CallOptions): Promise<Benchmark>;
}

export function benchmarksMethods({ raw, unwrap, init, fieldsHeader }: ClientContext): BenchmarksMethods {
  return {
    listBenchmarks: (o) => unwrap(raw.GET("/benchmarks/", { params: { header: fieldsHeader(o) }, ...init(o) })),
    getBenchmark: (benchmarkId, o) =>
      unwrap(
        raw.GET("/benchmarks/{benchmark_id}", {
          params: { path: { benchmark_id: benchmarkId }, header: fieldsHeader(o) },
          ...init(o),
        }),
      ),
  };
}
