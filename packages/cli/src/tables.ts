import Table from "cli-table3";
import type { Execution, Metric, Session } from "@benchwright/sdk";
import { figure, spread } from "./figures.js";
import { paramsText } from "./params-text.js";

type Cell = string | number;

/** A borderless table with a header row, as `ls`-like commands print them. */
export function table(head: string[], rows: Cell[][]): string {
  const t = new Table({
    head,
    chars: {
      top: "",
      "top-mid": "",
      "top-left": "",
      "top-right": "",
      bottom: "",
      "bottom-mid": "",
      "bottom-left": "",
      "bottom-right": "",
      left: "",
      "left-mid": "",
      mid: "",
      "mid-mid": "",
      right: "",
      "right-mid": "",
      middle: "  ",
    },
    // Colours only on a terminal: piped output is for reading by programs and people's files.
    style: { head: process.stdout.isTTY ? ["bold"] : [], border: [], "padding-left": 0, "padding-right": 0 },
  });
  t.push(...rows.map((r) => r.map(String)));
  // cli-table3 pads the last column too: trailing blanks only get in the way of grep and diff.
  return t
    .toString()
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n");
}

/** `threads=4, mode=rnd`: what tells a figure apart from others of its name. */
export function tagsText(tags: Record<string, unknown> | undefined): string {
  return Object.entries(tags ?? {})
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(", ");
}

/** `n=5 sd=0.4 95% [1.2, 2.8]`: a repeated figure's count, standard deviation and 95% interval. */
function statsText(m: Metric): string {
  const s = m.stats;
  return s ? `n=${s.n} sd=${spread(s.stddev)} 95% [${figure(s.ci_low)}, ${figure(s.ci_high)}]` : "";
}

/** The figures; a repeated run's with their statistics (VALUE is then the mean), a run on several machines' with where. */
export function metricsTable(metrics: Metric[]): string {
  if (metrics.length === 0) return "(no metrics)";
  const repeated = metrics.some((m) => m.stats);
  const placed = metrics.some((m) => m.role !== undefined);
  return table(
    ["METRIC", "VALUE", "UNIT", "TAGS", ...(repeated ? ["REPEATED"] : []), ...(placed ? ["ROLE", "MACHINE"] : [])],
    metrics.map((m) => [m.name, figure(m.value), m.unit, tagsText(m.tags), ...(repeated ? [statsText(m)] : []), ...(placed ? [m.role ?? "", m.vm ?? ""] : [])]),
  );
}

/** The executions with their params (which often decide the figures) and, for one whose last step was cancelled, that it was. */
export function executionsTable(executions: Execution[]): string {
  return table(
    ["ID", "TOOL", "WORKLOAD", "STATE", "PARAMS", "CREATED", "METRICS", "SESSION"],
    executions.map((e) => [e.id, e.test.tool_id, e.test.workload_id, executionState(e), paramsText(e.params), e.created, e.metrics.length, e.session_id]),
  );
}

/** `run_failed (cancelled)` when the failed step was cancelled (its code `step_cancelled`), not failed by the tool or the target. */
function executionState(e: Pick<Execution, "state" | "steps">): string {
  const last = e.steps.at(-1);
  return e.state.endsWith("_failed") && last?.state === "failed" && last.error_code === "step_cancelled" ? `${e.state} (cancelled)` : e.state;
}

export function sessionsTable(sessions: Session[]): string {
  return table(
    ["ID", "PROVIDER", "SERVICE", "STATE", "CREATED", "EXECUTIONS"],
    sessions.map((s) => [s.id, s.provider.id, s.provider.type, s.state, s.created, s.executions.length]),
  );
}

export function stepsTable(execution: Execution): string {
  if (execution.steps.length === 0) return "(no steps yet)";
  return table(
    ["STEP", "ATTEMPT", "STATE", "STARTED", "DURATION", "EXIT", "ERROR"],
    execution.steps.map((s) => [
      s.step,
      s.attempt,
      s.state === "failed" && s.error_code === "step_cancelled" ? "cancelled" : s.state,
      s.started ?? "",
      s.duration ?? "",
      s.exit_code ?? "",
      s.error ?? "",
    ]),
  );
}
