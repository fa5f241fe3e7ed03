import { readFile } from "node:fs/promises";
import type { Ingest, IngestCreate } from "@benchwright/sdk";
import { note, print, printJson, type Context } from "../context.js";
import { UsageError } from "../exit-codes.js";
import { ciEnvOf } from "../gate/ci-env.js";
import { clientFacts } from "../gate/client-facts.js";

export interface IngestOptions {
  adapter: IngestCreate["adapter"];
  benchmark?: string;
  target?: string;
  branch?: string;
  commit?: string;
}

/** The harnesses whose output `ingest` and `gate` read (the contract's IngestCreate.adapter). */
export const ADAPTERS = ["hyperfine", "google_benchmark", "pytest_benchmark", "go_test", "generic"] as const;

/** Sends a harness's file as an ingest, with the branch and commit from the flags or the CI's environment, and this machine's facts. */
export async function sendIngest(file: string, options: IngestOptions, ctx: Context): Promise<Ingest> {
  let output: string;
  try {
    output = await readFile(file, "utf8");
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const ci = ciEnvOf(process.env);
  return ctx.bw.createIngest({
    adapter: options.adapter,
    output,
    ...(options.benchmark ? { benchmark: options.benchmark } : {}),
    ...(options.target ? { target: options.target } : {}),
    branch: options.branch ?? ci.branch ?? null,
    commit: options.commit ?? ci.commit ?? null,
    facts: clientFacts(),
  });
}

/** `benchwright ingest --adapter hyperfine results.json`: the file's benchmarks as points of their series. */
export async function ingestCommand(file: string, options: IngestOptions, ctx: Context): Promise<number> {
  const ingest = await sendIngest(file, options, ctx);
  if (ctx.json) printJson(ingest);
  else {
    note(`ingest ${ingest.id}: ${ingest.points.length} point${ingest.points.length === 1 ? "" : "s"}${ingest.branch ? ` on ${ingest.branch}` : ""}`);
    for (const p of ingest.points) print(`${p.metric.name}\t${p.mean} ${p.metric.unit}\tn=${p.n}\tseries ${p.series_id} #${p.seq}`);
  }
  return 0;
}
