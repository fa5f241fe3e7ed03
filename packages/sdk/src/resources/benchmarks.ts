import type { CallOptions, ClientContext, RequestOptions } from "../client-context.js";
import type { Benchmark, BenchmarkDefinitionDocument, BenchmarkVersion } from "../types.js";

/** The benchmarks: listed and read by any role; a team's definitions written by an admin. */
export interface BenchmarksMethods {
  listBenchmarks(options?: CallOptions): Promise<Benchmark[]>;
  getBenchmark(benchmarkId: string, options?: CallOptions): Promise<Benchmark>;
  /**
   * Creates a team's definition, or writes its next version: `document` is what a catalogue
   * file holds (`@benchwright/sdk/benchmark-definition.schema.json`). Refused whole (400
   * `invalid_definition`) with every problem at its JSON Pointer; a built-in tool's id is read-only (409).
   */
  putBenchmark(benchmarkId: string, document: BenchmarkDefinitionDocument, options?: CallOptions): Promise<Benchmark>;
  /** Deletes a team's definition; its versions stay readable for the executions made on them. */
  deleteBenchmark(benchmarkId: string, options?: RequestOptions): Promise<void>;
  /** Every version of a team's definition, the latest first. */
  listBenchmarkVersions(benchmarkId: string, options?: CallOptions): Promise<BenchmarkVersion[]>;
  getBenchmarkVersion(benchmarkId: string, version: number, options?: CallOptions): Promise<BenchmarkVersion>;
}

export function benchmarksMethods({ raw, unwrap, init, fieldsHeader }: ClientContext): BenchmarksMethods {
  const at = (id: string) => ({ benchmark_id: id });
  return {
    listBenchmarks: (o) => unwrap(raw.GET("/benchmarks/", { params: { header: fieldsHeader(o) }, ...init(o) })),
    getBenchmark: (benchmarkId, o) =>
      unwrap(
        raw.GET("/benchmarks/{benchmark_id}", {
          params: { path: { benchmark_id: benchmarkId }, header: fieldsHeader(o) },
          ...init(o),
        }),
      ),
    putBenchmark: (id, document, o) =>
      unwrap(raw.PUT("/benchmarks/{benchmark_id}", { body: document, params: { path: at(id), header: fieldsHeader(o) }, ...init(o) })),
    deleteBenchmark: async (id, o) => {
      await unwrap<void>(raw.DELETE("/benchmarks/{benchmark_id}", { params: { path: at(id) }, ...init(o) }));
    },
    listBenchmarkVersions: (id, o) =>
      unwrap(raw.GET("/benchmarks/{benchmark_id}/versions/", { params: { path: at(id), header: fieldsHeader(o) }, ...init(o) })),
    getBenchmarkVersion: (id, version, o) =>
      unwrap(raw.GET("/benchmarks/{benchmark_id}/versions/{version}", { params: { path: { ...at(id), version }, header: fieldsHeader(o) }, ...init(o) })),
  };
}
