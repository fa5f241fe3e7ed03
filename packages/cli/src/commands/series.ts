import type { SeriesBaselineSet } from "@benchwright/sdk";
import { note, print, printJson, type Context } from "../context.js";
import { UsageError } from "../exit-codes.js";
import { positiveInteger } from "../filters.js";
import { resolveIdAmong } from "../ids.js";
import { changesTable, pointsTable, seriesRecord, seriesTable } from "../series-text.js";

export interface SeriesOptions {
  tool?: string;
  workload?: string;
  metric?: string;
  provider?: string;
  serviceType?: string;
  baseline?: string;
  clearBaseline?: boolean;
  margin?: string;
  last?: string;
  branch?: string;
}

/** How many of a series' points `series <id>` shows unless told. */
const RECENT_POINTS = 20;

/** `--baseline 3` or `--baseline 1-5`: the points of the baseline. */
export function baselineOf(text: string): SeriesBaselineSet {
  const m = /^(\d+)(?:-(\d+))?$/.exec(text.trim());
  if (!m) throw new UsageError(`--baseline takes a point or a range of points (3, or 1-5), not '${text}'`);
  const from = positiveInteger(m[1]!, "--baseline");
  const to = m[2] === undefined ? undefined : positiveInteger(m[2], "--baseline");
  if (to !== undefined && to < from) throw new UsageError(`--baseline ${text}: the range ends before it starts`);
  return to === undefined ? { from } : { from, to };
}

/** `benchwright series [id]`: the series that match the filters, or one series with its recent points and changes. */
export async function seriesCommand(id: string | undefined, options: SeriesOptions, ctx: Context): Promise<number> {
  if (id === undefined) return listSeries(options, ctx);
  for (const flag of ["tool", "workload", "metric", "provider", "serviceType"] as const) {
    if (options[flag] !== undefined) throw new UsageError("the filters list series: leave them out with a series' id");
  }
  if (options.branch !== undefined && !options.branch.trim()) throw new UsageError("--branch takes a branch's name");
  if (options.baseline !== undefined && options.clearBaseline) throw new UsageError("--baseline and --clear-baseline: one or the other");
  const last = options.last === undefined ? RECENT_POINTS : positiveInteger(options.last, "--last");
  const seriesId = await resolveIdAmong(id, () => ctx.bw.listSeries({ fields: "id" }), "series");
  if (options.margin !== undefined && options.baseline === undefined)
    throw new UsageError("--margin goes with --baseline: the margin is kept with the baseline");
  const margin = options.margin === undefined ? undefined : Number(options.margin);
  if (margin !== undefined && !(margin >= 0 && margin <= 1)) throw new UsageError("--margin takes a relative difference from 0 to 1 (0.02: 2%)");
  if (options.baseline !== undefined) {
    await ctx.bw.setSeriesBaseline(seriesId, { ...baselineOf(options.baseline), ...(margin === undefined ? {} : { margin }) });
    note(`baseline set to points ${options.baseline}`);
  } else if (options.clearBaseline) {
    await ctx.bw.clearSeriesBaseline(seriesId);
    note("baseline cleared");
  }
  const { branch } = options;
  const [series, points, changes] = await Promise.all([
    ctx.bw.getSeries(seriesId),
    ctx.bw.listSeriesPoints(seriesId, branch === undefined ? undefined : { branch }),
    ctx.bw.listSeriesChanges(seriesId),
  ]);
  if (ctx.json) {
    printJson({ series, points, changes });
    return 0;
  }
  print(seriesRecord(series));
  const recent = points.slice(-last);
  const of = branch === undefined ? "" : ` on branch ${branch}`;
  print(`\nPoints${of}${recent.length < points.length ? ` (the last ${recent.length} of ${points.length}; --last <n> for more)` : ""}`);
  if (points.length === 0 && branch !== undefined) note(`no point of this series is on branch ${branch}`);
  print(pointsTable(recent, changes));
  print("\nChanges");
  print(changesTable(changes, false));
  return 0;
}

async function listSeries(options: SeriesOptions, ctx: Context): Promise<number> {
  if (options.baseline !== undefined || options.clearBaseline) throw new UsageError("--baseline and --clear-baseline need a series' id");
  if (options.branch !== undefined) throw new UsageError("--branch shows one series' points: give the series' id");
  const { tool, workload, metric, provider, serviceType } = options;
  // Without a limit the server answers every match at once.
  const series = await ctx.bw.listSeries({ tool, workload, metric, provider, serviceType });
  if (ctx.json) printJson(series);
  else if (series.length === 0) note("no series match");
  else print(seriesTable(series));
  return 0;
}
