import type { Comparison, MetricFigure } from "@benchwright/sdk";
import { print, printJson, type Context } from "../context.js";
import { UsageError } from "../exit-codes.js";
import { claimsText } from "../claims-text.js";
import { figure, spread, verdictText } from "../figures.js";
import { resolveExecutionIds } from "../ids.js";
import { paramsText } from "../params-text.js";
import { table, tagsText } from "../tables.js";

export interface CompareOptions {
  baseline?: string;
  confidence?: string;
  margin?: string;
  warmup?: string;
}

/**
 * `benchwright compare <a> <b>...`: the server's comparison, one row per metric and one column
 * per execution: its mean ± the half-width of its confidence interval, and against the
 * baseline its ratio and verdict; above it, a warning naming the sides whose tool versions differ.
 */
export async function compareCommand(ids: string[], options: CompareOptions, ctx: Context): Promise<number> {
  if (ids.length < 2) throw new UsageError("compare takes two execution ids or more");
  const confidence = options.confidence === undefined ? undefined : Number(options.confidence);
  if (confidence !== undefined && !(confidence >= 0.5 && confidence <= 0.999)) throw new UsageError("--confidence takes a level from 0.5 to 0.999");
  const whole = await resolveExecutionIds(ctx, [...ids, ...(options.baseline === undefined ? [] : [options.baseline])]);
  const margin = options.margin === undefined ? undefined : Number(options.margin);
  if (margin !== undefined && !(margin >= 0 && margin <= 1)) throw new UsageError("--margin takes a relative difference from 0 to 1 (0.02: 2%)");
  if (options.warmup !== undefined && !/^(auto|[0-9]{1,3})$/.test(options.warmup)) throw new UsageError("--warmup takes a number of runs or 'auto'");
  const warmup = options.warmup === undefined ? undefined : options.warmup === "auto" ? "auto" : Number(options.warmup);
  const baseline = options.baseline === undefined ? undefined : whole.pop();
  const comparison = await ctx.bw.compareExecutions(whole, { baseline, confidence, margin, warmup });
  if (ctx.json) {
    printJson(comparison);
    return 0;
  }
  print(comparisonText(comparison));
  return 0;
}

/** The legend, then one row per metric and one column per execution. */
export function comparisonText(comparison: Comparison): string {
  const head = ["METRIC", "TAGS", "UNIT", ...comparison.executions.map((e, i) => `${letter(i)}: ${e.tool}/${e.workload}`)];
  const rows = comparison.metrics.map((m) => [
    m.name,
    tagsText(m.tags),
    m.unit + (m.better ? ` (${m.better} better)` : ""),
    ...comparison.executions.map((e) => cell(m.figures.find((f) => f.execution_id === e.id))),
  ]);
  const letterOf = (id: string) => letter(comparison.executions.findIndex((e) => e.id === id));
  const claimed = comparison.metrics.flatMap((m) =>
    m.figures.map((f) => ({ who: letterOf(f.execution_id), metric: m.name, claim: f.claim, variability: f.variability })),
  );
  return `${legend(comparison)}\n${versionWarning(comparison)}${paramsWarning(comparison)}${rows.length ? table(head, rows) : "(no metrics to compare)"}${claimsText(claimed, comparison.margin)}`;
}

/**
 * The server's flag: the sides whose tool versions differ, each by its letter with its version;
 * nothing when they agree (or a server from before the flag sent none).
 */
function versionWarning(c: Comparison): string {
  const sides = c.tool_versions_differ ?? [];
  if (!sides.length) return "";
  const letterOf = (id: string) => letter(c.executions.findIndex((e) => e.id === id));
  const lines = sides.map((s) => `!   ${letterOf(s.execution_id)} = ${s.version}`);
  return ["! tool versions differ: these figures come from different builds of the tool", ...lines, ""].join("\n");
}

/** The server's flag, as the versions': the sides of one workload run with different params, each by its letter with its params. */
function paramsWarning(c: Comparison): string {
  const sides = c.params_differ ?? [];
  if (!sides.length) return "";
  const letterOf = (id: string) => letter(c.executions.findIndex((e) => e.id === id));
  const lines = sides.map((s) => `!   ${letterOf(s.execution_id)} = ${paramsText(s.params) || "(no params)"}`);
  return ["! params differ: these figures come from different params of the workload, not only from different machines", ...lines, ""].join("\n");
}

function legend(c: Comparison): string {
  const lines = c.executions.map(
    (e, i) =>
      `${letter(i)} = ${e.id} (${e.provider}/${e.service_type}, ${e.state})${e.id === c.baseline ? " baseline" : ""}${paramsText(e.params) ? ` ${paramsText(e.params)}` : ""}`,
  );
  return [...lines, `mean ± ${Math.round(c.confidence * 100)}% interval (n); ratio to the baseline and its verdict`].join("\n");
}

function cell(f: MetricFigure | undefined): string {
  if (!f) return "-";
  const halfWidth = f.n > 1 ? ` ± ${spread(f.ci_high - f.mean)}` : "";
  const text = `${figure(f.mean)}${halfWidth} (n=${f.n})`;
  if (f.verdict === "baseline" || f.ratio === null) return f.verdict === "unknown" ? `${text} ${verdictText(f.verdict)}` : text;
  return `${text} x${f.ratio.toFixed(3)} ${verdictText(f.verdict)}`;
}

function letter(i: number): string {
  return i < 26 ? String.fromCharCode(65 + i) : `#${i + 1}`;
}
