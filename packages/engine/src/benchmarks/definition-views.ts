import type { ToolDefinition } from "@benchwright/catalog";
import type { Benchmark, BenchmarkSource, BenchmarkVersion } from "@benchwright/contract";
import type { DefinitionVersionRow } from "../store/benchmark-definitions-repository.js";
import { formatTimestamp } from "../time.js";
import { benchmarkView } from "../views/benchmark-views.js";

/** A tool of the catalogue with where it comes from, its version and its digest. */
export function sourcedBenchmarkView(tool: ToolDefinition, source: BenchmarkSource, digest: string, row?: DefinitionVersionRow): Benchmark {
  return {
    ...benchmarkView(tool),
    source,
    read_only: source !== "api",
    version: row?.version ?? 1,
    digest,
    updated: row ? formatTimestamp(row.created) : null,
    updated_by: row?.created_by ?? null,
  };
}

/** A definition written through the API, at its stored version. */
export function teamBenchmarkView(tool: ToolDefinition, row: DefinitionVersionRow): Benchmark {
  return sourcedBenchmarkView(tool, "api", row.digest, row);
}

/** One stored version, with the document as it was written. */
export function definitionVersionView(row: DefinitionVersionRow): BenchmarkVersion {
  return {
    id: row.id,
    version: row.version,
    digest: row.digest,
    created: formatTimestamp(row.created),
    created_by: row.created_by,
    deleted: row.deleted ? formatTimestamp(row.deleted) : null,
    definition: row.document,
  };
}
