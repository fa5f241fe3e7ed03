import type { Claim, FigureVariability } from "@benchwright/sdk";

/** A figure as the claims and variability sections read it (a comparison's or a report's). */
export interface ClaimedFigure {
  /** Who: the execution's letter, or the target. */
  who: string;
  metric: string;
  claim?: Claim;
  variability?: FigureVariability;
}

const pct = (x: number | null) => (x === null ? "-" : `${(x * 100).toFixed(1)}%`);

/**
 * The claims, one sentence each with its adjusted p-value; then how much the figures vary between
 * machines and within one (only where several machines measured them: on one machine the
 * between-machine spread is not known, which the line says).
 */
export function claimsText(figures: readonly ClaimedFigure[], margin: number | undefined): string {
  const claimed = figures.filter((f) => f.claim);
  const lines: string[] = [];
  if (claimed.length) {
    lines.push(`claims with a margin of ${pct(margin ?? claimed[0].claim!.margin)} (p-values adjusted by Holm across them all):`);
    for (const f of claimed)
      lines.push(`  ${f.claim!.verdict.replace("_", " ").toUpperCase()}: ${f.claim!.sentence} (adjusted p ${f.claim!.p_adjusted.toPrecision(2)})`);
  }
  const spread = figures.filter((f) => f.variability);
  if (spread.some((f) => f.variability!.machines > 1)) {
    lines.push("variability (coefficient of variation, with its interval):");
    for (const { who, metric, variability: v } of spread) {
      const between =
        v!.machines > 1
          ? `between machines ${pct(v!.between_cv)} [${pct(v!.between_cv_ci_low)}, ${pct(v!.between_cv_ci_high)}]`
          : "one machine: between machines unknown";
      lines.push(
        `  ${who} ${metric}: ${between}; within a machine ${pct(v!.within_cv)} [${pct(v!.within_cv_ci_low)}, ${pct(v!.within_cv_ci_high)}] (${v!.machines} machines, ${v!.runs} runs)${robustNotes(v!)}`,
      );
    }
  }
  return lines.length ? `\n${lines.join("\n")}` : "";
}

/** What the robust checks found, as the summary says it: warm-up and outliers flagged, a skewed interval bootstrapped. */
function robustNotes(v: FigureVariability): string {
  const notes = [
    v.warmup_discarded ? `${v.warmup_discarded} warm-up run${v.warmup_discarded === 1 ? "" : "s"} left out` : "",
    v.warmup_runs ? `warm-up: ${v.warmup_runs} run${v.warmup_runs === 1 ? "" : "s"} flagged` : "",
    v.outliers ? `${v.outliers} outlier${v.outliers === 1 ? "" : "s"} (${v.outlier_rule})` : "",
    v.interval_method === "bootstrap" ? `interval by bootstrap (skewness ${v.skewness.toFixed(1)})` : "",
  ].filter(Boolean);
  return notes.length ? `; ${notes.join("; ")}` : "";
}
