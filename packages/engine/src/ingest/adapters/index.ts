import { generic } from "./generic.js";
import { goTest } from "./go-test.js";
import { googleBenchmark } from "./google-benchmark.js";
import { hyperfine } from "./hyperfine.js";
import type { Adapter } from "./measures.js";
import { pytestBenchmark } from "./pytest-benchmark.js";

/** The harnesses whose output an ingest reads, by the name a client gives (the contract's IngestCreate.adapter). */
export const ADAPTERS: Readonly<Record<string, Adapter>> = {
  hyperfine,
  google_benchmark: googleBenchmark,
  pytest_benchmark: pytestBenchmark,
  go_test: goTest,
  generic,
};
