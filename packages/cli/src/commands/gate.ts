import { appendFile, writeFile } from "node:fs/promises";
import type { Gate, GateCreate } from "@benchwright/sdk";
import { note, print, type Context } from "../context.js";
import { ExitCode, UsageError } from "../exit-codes.js";
import { gateAnnotations } from "../gate/annotations.js";
import { ciEnvOf } from "../gate/ci-env.js";
import { gateJunit } from "../gate/junit.js";
import { gateMarkdown, metricName, ratioText } from "../gate/markdown.js";
import { type IngestOptions, sendIngest } from "./ingest.js";

export interface GateOptions extends Partial<IngestOptions> {
  ingest?: string;
  baselineBranch?: string;
  baseBranch?: string;
  last?: string;
  since?: string;
  margin?: string;
  inconclusive: "fail" | "warn" | "pass";
  format: "text" | "markdown" | "junit" | "json";
  output?: string;
  dashboard?: string;
}

/**
 * `benchwright gate`: ingests a harness's file (or takes `--ingest <id>`), compares each of its
 * points with the series' history (the branch's own, else its base branch's) and exits 0 when
 * nothing is worse, 1 when something is, 4 when something is inconclusive (`--inconclusive
 * fail`, the default; `warn` and `pass` exit 0), 2 for a bad command line. Under GitHub Actions it
 * writes the Markdown report to $GITHUB_STEP_SUMMARY and an annotation per worse cell.
 */
export async function gateCommand(file: string | undefined, options: GateOptions, ctx: Context): Promise<number> {
  const body = gateRequestOf(options);
  let ingestId = options.ingest;
  if (!ingestId) {
    if (!file || !options.adapter) throw new UsageError("gate needs a harness's file and --adapter (or --ingest <id> of one already sent)");
    const ingest = await sendIngest(file, options as IngestOptions, ctx);
    note(`ingest ${ingest.id}: ${ingest.points.length} point${ingest.points.length === 1 ? "" : "s"}${ingest.branch ? ` on ${ingest.branch}` : ""}`);
    ingestId = ingest.id;
  } else if (file) throw new UsageError("give a file or --ingest, not both");
  const gate = await ctx.bw.createGate({ ...body, ingest_id: ingestId });
  const dashboard = options.dashboard ?? `${ctx.url.replace(/\/+$/, "")}/ui/`;
  const format = ctx.json ? "json" : options.format;
  const report =
    format === "json"
      ? `${JSON.stringify(gate, null, 2)}\n`
      : format === "markdown"
        ? gateMarkdown(gate, dashboard)
        : format === "junit"
          ? gateJunit(gate, new Date())
          : gateText(gate);

  const env = process.env;
  const inconclusiveFails = options.inconclusive === "fail";
  if (env.GITHUB_ACTIONS === "true") {
    // Workflow commands on stdout, unless stdout carries a document a program reads.
    const say = options.output || format === "text" || format === "markdown" ? print : note;
    for (const line of gateAnnotations(gate, inconclusiveFails)) say(line);
    if (env.GITHUB_STEP_SUMMARY) await appendFile(env.GITHUB_STEP_SUMMARY, gateMarkdown(gate, dashboard));
  }
  if (options.output) await writeFile(options.output, report);
  else process.stdout.write(report);

  if (gate.worse > 0) return ExitCode.stepFailed;
  if (gate.inconclusive > 0 && options.inconclusive !== "pass") {
    note(
      `${gate.inconclusive} inconclusive: ${inconclusiveFails ? "the gate fails (--inconclusive warn or pass to let it through)" : "let through (--inconclusive warn)"}`,
    );
    if (inconclusiveFails) return ExitCode.inconclusive;
  }
  return ExitCode.ok;
}

/** The gate's request from the flags and the CI's environment; a flag out of range is a usage error. */
function gateRequestOf(options: GateOptions): Omit<GateCreate, "ingest_id"> {
  const ci = ciEnvOf(process.env);
  const baseline: NonNullable<GateCreate["baseline"]> = {};
  if (options.baselineBranch) baseline.branch = options.baselineBranch;
  const base = options.baseBranch ?? ci.baseBranch ?? "main";
  if (base) baseline.fallback_branch = base;
  if (options.last !== undefined) {
    const last = Number(options.last);
    if (!Number.isInteger(last) || last < 2) throw new UsageError(`--last ${options.last}: a whole number from 2`);
    baseline.last = last;
  }
  if (options.since !== undefined) {
    const since = new Date(options.since);
    if (Number.isNaN(since.getTime())) throw new UsageError(`--since ${options.since}: a date (2026-11-01, or 2026-11-01T12:00:00Z)`);
    baseline.since = since.toISOString().slice(0, 19).replace("T", " ");
  }
  const request: Omit<GateCreate, "ingest_id"> = { baseline };
  if (options.margin !== undefined) {
    const margin = Number(options.margin);
    if (!(margin > 0 && margin <= 1)) throw new UsageError(`--margin ${options.margin}: a fraction above 0, at most 1 (0.05: 5%)`);
    request.margin = margin;
  }
  return request;
}

/** The gate for a terminal: the outcome, then a line per cell. */
function gateText(gate: Gate): string {
  const lines = [
    `${gate.outcome}: ${gate.worse} worse, ${gate.inconclusive} inconclusive of ${gate.cells.length} (margin ±${(gate.margin * 100).toFixed(1)}%)`,
  ];
  for (const cell of gate.cells) lines.push(`  ${cell.verdict.padEnd(12)} ${metricName(cell)}  ${ratioText(cell)}`, `      ${cell.sentence}`);
  return `${lines.join("\n")}\n`;
}
