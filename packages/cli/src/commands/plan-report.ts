import { writeFile } from "node:fs/promises";
import { note, print, printJson, type Context } from "../context.js";
import { codeMeasuredText } from "../branch-text.js";
import { claimsText } from "../claims-text.js";
import { precisionText } from "../precision-text.js";
import { UsageError } from "../exit-codes.js";
import { resolveRun } from "../plan-runs.js";
import { rankingText } from "./plan-run.js";

export interface PlanReportOptions {
  format: string;
  plan?: string;
  output?: string;
}

const FORMATS = ["json", "csv", "jsonl", "html", "text"] as const;

/**
 * `benchwright plan report <run>`: a run's report as the server renders it (JSON, CSV, JSON
 * Lines, one self-contained HTML file), or its ranking as a table (`text`, the default on a
 * terminal). The run may be named alone: its plan is found.
 */
export async function planReportCommand(runId: string, options: PlanReportOptions, ctx: Context): Promise<number> {
  const format = options.format as (typeof FORMATS)[number];
  if (!FORMATS.includes(format)) throw new UsageError(`--format is one of ${FORMATS.join(", ")}, not '${options.format}'`);
  const { planId, runId: id } = await resolveRun(ctx.bw, runId, options.plan);
  if (format === "text" || format === "json") {
    // The text says the code the run measured (its branch and commit), which the report does not hold.
    const [report, run] = await Promise.all([ctx.bw.getPlanRunReport(planId, id), format === "text" ? ctx.bw.getPlanRun(planId, id) : undefined]);
    const code = run && codeMeasuredText(run);
    const claimed = report.cells.flatMap((c) =>
      c.metrics.flatMap((m) =>
        m.figures.map((f) => ({
          who: f.target,
          metric: `${m.name} (${c.tool}/${c.workload} #${c.benchmark}.${c.cell})`,
          claim: f.claim,
          variability: f.variability,
        })),
      ),
    );
    const text =
      format === "json"
        ? `${JSON.stringify(report, null, 2)}\n`
        : `${code ? `Code measured: ${code}\n\n` : ""}${rankingText(report)}${claimsText(claimed, report.margin)}${precisionText(report)}\n`;
    if (!options.output) {
      if (format === "json" || ctx.json) printJson(report);
      else print(text.trimEnd());
      return 0;
    }
    await writeFile(options.output, text);
  } else {
    const text = await ctx.bw.getPlanRunReportText(planId, id, format);
    if (!options.output) {
      process.stdout.write(text);
      return 0;
    }
    await writeFile(options.output, text);
  }
  if (!ctx.json) note(`report of run ${id} written to ${options.output} (${format})`);
  return 0;
}
