import { appendFile, writeFile } from "node:fs/promises";
import type { Gate, GateCreate } from "@benchwright/sdk";
import { note, print, type Context } from "../context.js";
import { ExitCode, UsageError } from "../exit-codes.js";
import { gateAnnotations } from "../gate/annotations.js";
import { ciEnvOf } from "../gate/ci-env.js";
import { gateJunit } from "../gate/junit.js";
import { type ExecutionSubject, executionIdsOf, runPlanForGate } from "../gate/gate-subject.js";
import { gateMarkdown, metricName, ratioText } from "../gate/markdown.js";
import { type IngestOptions, sendIngest } from "./ingest.js";

export interface GateOptions extends Partial<IngestOptions> {
  ingest?: string;
  /** A plan to run, whose cells are gated. */
  plan?: string;
  /** Executions already run, comma-separated. */
  executions?: string;
  /** With --plan: compare each cell with this target's cell of the same run. */
  baselineTarget?: string;
  /** With --executions: compare each with the execution of the same benchmark among these. */
  baselineExecutions?: string;
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
 * `benchwright gate`: ingests a harness's file (or takes `--ingest <id>`), or runs a plan
 * (`--plan`), or takes executions already run (`--executions`); compares each point with the
 * series' history (the branch's own, else its base branch's), or with another target of the
 * same run (`--baseline-target`, `--baseline-executions`), and exits 0 when
 * nothing is worse, 1 when something is, 4 when something is inconclusive (`--inconclusive
 * fail`, the default; `warn` and `pass` exit 0), 2 for a bad command line. Under GitHub Actions it
 * writes the Markdown report to $GITHUB_STEP_SUMMARY and an annotation per worse cell.
 */
export async function gateCommand(file: string | undefined, options: GateOptions, ctx: Context): Promise<number> {
  const given = [file && "a file", options.ingest && "--ingest", options.plan && "--plan", options.executions && "--executions"].filter(Boolean);
  if (given.length === 0)
    throw new UsageError("gate needs a harness's file and --adapter, --ingest <id> of one already sent, --plan <plan.yaml> or --executions <ids>");
  if (given.length > 1) throw new UsageError(`give one of a file, --ingest, --plan and --executions, not ${given.join(" and ")}`);
  if (options.baselineTarget && !options.plan) throw new UsageError("--baseline-target compares a plan's targets: with --plan");
  if (options.baselineExecutions && !options.executions) throw new UsageError("--baseline-executions compares executions: with --executions");
  const againstRun = Boolean(options.baselineTarget || options.baselineExecutions);
  const body = gateRequestOf(options, againstRun);
  let failedCells = 0;
  let request: GateCreate;
  if (options.plan) {
    const planned = await runPlanForGate(options.plan, options, ctx);
    if ("exitCode" in planned) return planned.exitCode;
    failedCells = planned.failedCells;
    request = { ...body, ...executionRequest(planned.subject) };
  } else if (options.executions) {
    const subject: ExecutionSubject = { execution_ids: executionIdsOf("--executions", options.executions) };
    if (options.baselineExecutions) subject.baselineExecutions = executionIdsOf("--baseline-executions", options.baselineExecutions);
    request = { ...body, ...executionRequest(subject) };
  } else if (options.ingest) request = { ...body, ingest_id: options.ingest };
  else {
    if (!options.adapter) throw new UsageError("gate needs --adapter for a harness's file");
    const ingest = await sendIngest(file!, options as IngestOptions, ctx);
    note(`ingest ${ingest.id}: ${ingest.points.length} point${ingest.points.length === 1 ? "" : "s"}${ingest.branch ? ` on ${ingest.branch}` : ""}`);
    request = { ...body, ingest_id: ingest.id };
  }
  const gate = await ctx.bw.createGate(request);
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
  if (failedCells > 0) {
    note(`${failedCells} cell${failedCells === 1 ? "" : "s"} of the plan did not complete: the gate fails`);
    return ExitCode.stepFailed;
  }
  if (gate.inconclusive > 0 && options.inconclusive !== "pass") {
    note(
      `${gate.inconclusive} inconclusive: ${inconclusiveFails ? "the gate fails (--inconclusive warn or pass to let it through)" : "let through (--inconclusive warn)"}`,
    );
    if (inconclusiveFails) return ExitCode.inconclusive;
  }
  return ExitCode.ok;
}

/** The executions gated, and those they are compared with when the baseline is a target of the same run. */
function executionRequest(subject: ExecutionSubject): Pick<GateCreate, "execution_ids" | "baseline"> {
  return { execution_ids: subject.execution_ids, ...(subject.baselineExecutions ? { baseline: { execution_ids: subject.baselineExecutions } } : {}) };
}

/**
 * The gate's request from the flags and the CI's environment; a flag out of range is a usage
 * error. Against a target of the same run (`againstRun`) a branch's history has no say.
 */
function gateRequestOf(options: GateOptions, againstRun: boolean): Omit<GateCreate, "ingest_id"> {
  const request: Omit<GateCreate, "ingest_id"> = {};
  if (options.margin !== undefined) {
    const margin = Number(options.margin);
    if (!(margin > 0 && margin <= 1)) throw new UsageError(`--margin ${options.margin}: a fraction above 0, at most 1 (0.05: 5%)`);
    request.margin = margin;
  }
  if (againstRun) {
    const history = [
      options.baselineBranch && "--baseline-branch",
      options.baseBranch && "--base-branch",
      options.last && "--last",
      options.since && "--since",
    ].filter(Boolean);
    if (history.length) throw new UsageError(`${history.join(", ")}: a branch's history, not with a target of the same run`);
    return request;
  }
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
  request.baseline = baseline;
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
