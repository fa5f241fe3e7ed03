import type { Client } from "openapi-fetch";
import { BenchwrightProblemError } from "../errors.js";
import type { paths } from "../generated/schema.js";
import type { Gate, GateCreate, Ingest, IngestCreate } from "../types.js";

/** What these methods need of the client: its raw openapi-fetch client. */
export interface IngestsContext {
  raw: Client<paths>;
}

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
  createIngest(body: IngestCreate, options?: { signal?: AbortSignal }): Promise<Ingest>;
  /**
   * Compares each point of an ingest with its series' recent history on a branch (its own, else
   * `baseline.fallback_branch`), with the verdicts of a comparison at a margin.
   *
   * @example
   * const gate = await bw.createGate({ ingest_id: ingest.id, baseline: { fallback_branch: "main" } });
   * if (gate.outcome === "worse") process.exitCode = 1;
   */
  createGate(body: GateCreate, options?: { signal?: AbortSignal }): Promise<Gate>;
}

export function ingestsMethods(ctx: IngestsContext): IngestsMethods {
  return {
    createIngest: async (body, o) => answer<Ingest>(await ctx.raw.POST("/ingests/", { body, signal: o?.signal })),
    createGate: async (body, o) => answer<Gate>(await ctx.raw.POST("/gates/", { body, signal: o?.signal })),
  };
}

/** The whole record (no fields mask is sent), or the server's problem thrown. */
function answer<T>({ data, error, response }: { data?: unknown; error?: unknown; response: Response }): T {
  if (!response.ok) throw BenchwrightProblemError.from(error, response);
  return data as T;
}
