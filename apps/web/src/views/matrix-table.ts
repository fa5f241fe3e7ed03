import { h } from "../dom.js";
import type { PlanMatrix } from "../plan-matrix.js";
import { href } from "../router.js";

/**
 * The run's matrix as a table: a row per target, a column per benchmark cell. Each square says
 * its state, or its ratio and verdict, coloured green or red where the difference is significant;
 * its hint (hover) tells a failed cell's error or a measured one's figures; a square with an
 * execution links to it.
 */
export function matrixTable(matrix: PlanMatrix): HTMLElement {
  return h(
    "div",
    { class: "wide" },
    h(
      "table",
      { class: "list matrix", "data-testid": "matrix" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", {}, "Target"),
          matrix.columns.map((c) =>
            h(
              "th",
              { scope: "col", "data-benchmark": c.benchmark, "data-cell": c.cell },
              c.title,
              c.mainMetric ? h("div", { class: "muted" }, c.mainMetric) : null,
            ),
          ),
        ),
      ),
      h(
        "tbody",
        {},
        matrix.rows.map((row) =>
          h(
            "tr",
            { "data-target": row.target, class: row.baseline ? "baseline" : "" },
            h("th", { scope: "row" }, row.target, row.baseline ? h("span", { class: "muted" }, " (baseline)") : null),
            row.squares.map((s, i) =>
              h(
                "td",
                {
                  class: `square tone-${s.tone}`,
                  "data-testid": "matrix-cell",
                  "data-target": s.target,
                  "data-benchmark": matrix.columns[i]!.benchmark,
                  "data-cell": matrix.columns[i]!.cell,
                  "data-state": s.state,
                  "data-tone": s.tone,
                  title: s.hint,
                  style: s.shade ? `background: ${s.shade}` : null,
                },
                s.executionId ? h("a", { href: href(["executions", s.executionId]) }, s.text) : s.text,
              ),
            ),
          ),
        ),
      ),
    ),
  );
}
