import type { ClientContext, RequestOptions } from "../client-context.js";
import type { Gate, GateCreate, Ingest, IngestCreate } from "../types.js";

/** Results of harnesses Benchwright does not run, and a CI's gate on them (docs/ci.md). */
export interface IngestsMethods {
  /**
   * Adds a harness's own output (hyperfine, Google Benchmark, pytest-benchmark, `go test -bench`,
   * the generic JSON) to the series, with the branch and commit it measured. A file its adapter
   * cannot read is a `BenchwrightProblemError` (400) whose `errors` name each pointer or line.
   *
   * @example
   * const ingest = await bw.createIngest({ adapter: "hyperfine", output: await readFile("results.json", "utf8"), branch: "main" });
   */
  createIngest(body: IngestCreate, options?: RequestOptions): Promise<Ingest>;
  /**
   * Compares each point of an ingest with its series' recent history on a branch (its own, else
   * `baseline.fallback_branch`), with the verdicts of a comparison at a margin.
   *
   * @example
   * const gate = await bw.createGate({ ingest_id: ingest.id, baseline: { fallback_branch: "main" } });
   * if (gate.outcome === "worse") process.exitCode = 1;
   */
  createGate(body: GateCreate, options?: RequestOptions): Promise<Gate>;
}

export function ingestsMethods({ raw, unwrap, init }: ClientContext): IngestsMethods {
  return {
    createIngest: (body, o) => unwrap(raw.POST("/ingests/", { body, ...init(o) })),
    createGate: (body, o) => unwrap(raw.POST("/gates/", { body, ...init(o) })),
  };
}
