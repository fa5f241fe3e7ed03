import type { Gate, GateCell } from "@benchwright/sdk";

const VERDICT_WORDS: Record<GateCell["verdict"], string> = {
  worse: "❌ worse",
  inconclusive: "⚠️ inconclusive",
  better: "✅ better",
  equivalent: "✅ equivalent",
  not_worse: "✅ not worse",
  not_better: "✅ not better",
};

/** A metric's name with its tags, as a table shows it. */
export function metricName(cell: GateCell): string {
  const tags = Object.entries(cell.metric.tags);
  return tags.length ? `${cell.metric.name} {${tags.map(([k, v]) => `${k}=${v}`).join(", ")}}` : cell.metric.name;
}

/** The benchmark with the params that tell its cells apart, and where it ran (its plan target's label when it was a cell): `sysbench/cpu threads=4 on fast`. */
function benchmarkName(cell: GateCell): string {
  const params = Object.entries(cell.benchmark.params ?? {});
  const where = cell.target_label ?? cell.target.service_type;
  return `${cell.benchmark.tool}/${cell.benchmark.workload}${params.length ? ` ${params.map(([k, v]) => `${k}=${v}`).join(" ")}` : ""} on ${where}`;
}

/** What the cell was compared with: a branch's history (`main, 8 points`), or another target's cell of the same run. */
function baselineName(cell: GateCell): string {
  const b = cell.baseline;
  if (!b) return "none";
  if (b.branch !== null) return `${b.branch}, ${b.points} points`;
  return `target ${b.target_label ?? `${b.target?.provider}/${b.target?.service_type}`}`;
}

const pct = (x: number) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)}%`;

/** The ratio and its interval as relative changes: `+10.2% (+7.9% to +12.5%)`. */
export function ratioText(cell: GateCell): string {
  if (cell.ratio === null) return "—";
  const ci = cell.ratio_ci_low !== null && cell.ratio_ci_high !== null ? ` (${pct(cell.ratio_ci_low - 1)} to ${pct(cell.ratio_ci_high - 1)})` : "";
  return `${cell.ratio.toFixed(3)}× ${pct(cell.ratio - 1)}${ci}`;
}

/** `|` and line ends would break a table's cell. */
const cellText = (s: string) => s.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");

/**
 * The gate as Markdown, for a pull request's comment and `$GITHUB_STEP_SUMMARY`: the outcome, then
 * one row per cell (worse and inconclusive first, as the server orders them) with its ratio,
 * interval and sentence, each linked to its series' page on the dashboard.
 */
export function gateMarkdown(gate: Gate, dashboard: string): string {
  const head =
    gate.outcome === "worse"
      ? `### ❌ Benchmarks: ${gate.worse} worse`
      : gate.outcome === "inconclusive"
        ? `### ⚠️ Benchmarks: ${gate.inconclusive} inconclusive`
        : "### ✅ Benchmarks: nothing worse";
  const on = [gate.branch && `branch \`${gate.branch}\``, gate.commit && `commit \`${gate.commit.slice(0, 12)}\``].filter(Boolean).join(", ");
  const lines = [
    head,
    "",
    `${gate.cells.length} metric${gate.cells.length === 1 ? "" : "s"}${on ? ` on ${on}` : ""}, margin ±${(gate.margin * 100).toFixed(1)}%, ${Math.round(gate.confidence * 100)}% intervals.`,
    "",
    "| Verdict | Metric | Benchmark | Ratio (95% CI) | Baseline | |",
    "|---|---|---|---|---|---|",
  ];
  for (const cell of gate.cells) {
    const link = `[series](${dashboard}#/series/${cell.series_id})`;
    lines.push(
      `| ${VERDICT_WORDS[cell.verdict]} | ${cellText(metricName(cell))} | ${cellText(benchmarkName(cell))} | ${ratioText(cell)} | ${cellText(baselineName(cell))} | ${link} |`,
    );
  }
  const told = gate.cells.filter((c) => c.verdict === "worse" || c.verdict === "inconclusive");
  if (told.length > 0) {
    lines.push("");
    for (const cell of told) lines.push(`- **${cellText(metricName(cell))}**: ${cell.sentence}`);
  }
  return `${lines.join("\n")}\n`;
}
