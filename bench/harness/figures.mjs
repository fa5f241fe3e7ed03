// The figures a bench script records and prints: measure | now | reference | ratio | target | ok?
import { appendFileSync } from "node:fs";

const figures = [];

/**
 * Records one figure. `now` and `ref` are numbers in `unit`; the ratio is now / ref. `ok`
 * judges the figure against its target (given the ratio and now), or is absent without one.
 */
export function figure({ measure, now, ref, unit, refLabel, target = "", ok, digits }) {
  const ratio = Number.isFinite(now) && Number.isFinite(ref) && ref !== 0 ? now / ref : NaN;
  const row = {
    measure,
    now: formatValue(now, unit, digits),
    reference: Number.isFinite(ref) ? `${formatValue(ref, unit, digits)}${refLabel ? ` (${refLabel})` : ""}` : (refLabel ?? ""),
    ratio: Number.isFinite(ratio) ? `${ratio >= 100 ? ratio.toFixed(0) : ratio >= 10 ? ratio.toFixed(1) : ratio.toFixed(2)}x` : "",
    target,
    ok: ok === undefined ? "" : ok(ratio, now) ? "yes" : "NO",
  };
  console.log(
    `  -> ${row.measure}: ${row.now}${row.reference ? ` vs ${row.reference}` : ""}${row.ratio ? ` = ${row.ratio}` : ""}${target ? ` (target ${target}: ${row.ok})` : ""}`,
  );
  record(row);
}

/** Records that a measure could not be taken (the script goes on with the next one). */
export function failure(measure, error) {
  const reason = String(error?.message ?? error)
    .split("\n")[0]
    .slice(0, 160);
  console.error(`${measure} failed: ${error?.stack ?? error}`);
  process.exitCode = 1;
  record({ measure, now: `failed: ${reason}`, reference: "", ratio: "", target: "", ok: "NO" });
}

function record(row) {
  figures.push(row);
  // bench/all.mjs collects every script's figures into one table.
  if (process.env.BENCH_FIGURES_FILE) appendFileSync(process.env.BENCH_FIGURES_FILE, JSON.stringify(row) + "\n");
}

function formatValue(value, unit, digits) {
  if (!Number.isFinite(value)) return "n/a";
  const d = digits ?? (Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2);
  return `${value.toFixed(d)} ${unit}`;
}

export function printFigures(rows, title = "figures") {
  if (rows.length === 0) return;
  const columns = ["measure", "now", "reference", "ratio", "target", "ok"];
  const head = { measure: "measure", now: "now", reference: "reference", ratio: "ratio", target: "target", ok: "ok?" };
  const width = Object.fromEntries(columns.map((c) => [c, Math.max(...[head, ...rows].map((r) => String(r[c]).length))]));
  const line = (r) => "| " + columns.map((c) => String(r[c]).padEnd(width[c])).join(" | ") + " |";
  console.log(`\n${title}:`);
  console.log(line(head));
  console.log("|" + columns.map((c) => "-".repeat(width[c] + 2)).join("|") + "|");
  for (const r of rows) console.log(line(r));
}

/** Prints what this process recorded so far. */
export function printRecordedFigures() {
  printFigures(figures);
}
