import type { ComparedMetric, Comparison, MetricFigure } from "@benchwright/sdk";

type ComparedExecution = Comparison["executions"][number];
import { api } from "../api.js";
import { claimLines } from "../claim-lines.js";
import { claimsList } from "./claims-list.js";
import { chartElement } from "../charts/chart-element.js";
import { type Bar, metricBarHeight, metricBarOption } from "../charts/metric-bar-option.js";
import { h } from "../dom.js";
import { bytes, figure, shortId, tagsText } from "../format.js";
import { cannotBeNegative, FOLD_ABOVE, groupByUnit } from "../metric-groups.js";
import { href, type Route } from "../router.js";
import { stealAndIowait, stealAndIowaitText, type StealAndIowait } from "../telemetry-figures.js";
import { listTable } from "./list-table.js";

/**
 * The server's comparison of executions (`compareExecutions`): their machines side by side, an
 * overview of every metric's ratio and verdict, then per metric one bar per execution at its
 * mean, with the mean's confidence interval as an error bar, and the ratio to the baseline with
 * the verdict. The charts are grouped by unit in sections that fold (folded at first when there
 * are many), so that a tool reporting a dozen figures stays readable.
 */
export async function compareView(root: HTMLElement, route: Route, signal: AbortSignal): Promise<void> {
  const ids = (route.query.get("ids") ?? "").split(",").filter(Boolean);
  if (ids.length < 2) {
    root.replaceChildren(
      h("h1", {}, "Compare"),
      h("p", {}, "Pick two or more executions on the ", h("a", { href: href(["executions"]) }, "executions page"), ", then Compare selected."),
    );
    return;
  }
  const baseline = route.query.get("baseline") ?? undefined;
  // A margin in the address (`&margin=0.02`) asks for claims.
  const marginText = route.query.get("margin");
  const margin = marginText === null || marginText === "" || Number.isNaN(Number(marginText)) ? undefined : Number(marginText);
  const [comparison, machinesDuring] = await Promise.all([api().compareExecutions(ids, { baseline, margin, signal }), runTelemetry(ids, signal)]);
  root.replaceChildren(
    h("h1", {}, "Comparison"),
    h("p", { class: "muted" }, `Bars are means; error bars the ${Math.round(comparison.confidence * 100)}% confidence interval of each mean.`),
    ...toolVersionsWarning(comparison),
    ...paramsWarning(comparison),
    executionsTable(comparison, machinesDuring),
    ...claimsList(claimLines(comparison), comparison.margin),
    h("h2", {}, "Metrics"),
    ...(comparison.metrics.length
      ? [...(comparison.metrics.length > 1 ? [overview(comparison)] : []), ...metricGroups(comparison)]
      : [h("p", { class: "muted" }, "No metric is common to these executions' successful runs.")]),
  );
}

const metricKey = (m: ComparedMetric) => `${m.name}|${tagsText(m.tags)}`;

/** One row per metric, one column per execution: its ratio to the baseline and the verdict. A name opens its chart. */
function overview(c: Comparison): HTMLElement {
  const byId = new Map(c.executions.map((e) => [e.id, e]));
  const show = (m: ComparedMetric) => {
    const chart = document.querySelector<HTMLElement>(`figure.metric[data-key="${CSS.escape(metricKey(m))}"]`);
    const group = chart?.closest("details");
    if (group) group.open = true;
    chart?.scrollIntoView({ behavior: "smooth", block: "start" });
  };
  return h(
    "table",
    { class: "list overview", "data-testid": "metrics-overview" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", {}, "Metric"),
        h("th", {}, "Unit"),
        c.executions.map((e) => h("th", { title: e.id }, label(byId.get(e.id), e.id), e.id === c.baseline ? " (baseline)" : "")),
      ),
    ),
    // In the groups' order (by unit), as the charts below.
    groupByUnit(c.metrics).map((g) =>
      h(
        "tbody",
        { "data-unit": g.unit },
        h("tr", { class: "group" }, h("th", { colspan: 2 + c.executions.length }, g.unit || "(no unit)")),
        g.metrics.map((m) => {
          const byExecution = new Map(m.figures.map((f) => [f.execution_id, f]));
          const tags = tagsText(m.tags);
          return h(
            "tr",
            { "data-metric": m.name },
            h(
              "td",
              {},
              h("button", { type: "button", class: "link", onclick: () => show(m) }, m.name),
              tags ? h("span", { class: "muted" }, ` ${tags}`) : null,
            ),
            h("td", {}, m.unit, m.better ? h("span", { class: "muted" }, `, ${m.better} better`) : null),
            c.executions.map((e) => {
              const f = byExecution.get(e.id);
              if (!f) return h("td", { class: "muted" }, "—");
              return h(
                "td",
                {
                  class: `cell verdict-${f.verdict}`,
                  title: `mean ${figure(f.mean)} ${m.unit} [${figure(f.ci_low)}, ${figure(f.ci_high)}], n=${f.n}`,
                },
                f.verdict === "baseline" ? `${figure(f.mean)}` : `${f.ratio === null ? "" : `×${figure(f.ratio)} `}${f.verdict.replace("_", " ")}`,
              );
            }),
          );
        }),
      ),
    ),
  );
}

/** The charts by unit, each group a section that folds; all folded at first past FOLD_ABOVE metrics. */
function metricGroups(c: Comparison): HTMLElement[] {
  const fold = c.metrics.length > FOLD_ABOVE;
  const groups = groupByUnit(c.metrics);
  const all = (open: boolean) => () => {
    for (const d of document.querySelectorAll<HTMLDetailsElement>("details.metric-group")) d.open = open;
  };
  return [
    ...(groups.length > 1
      ? [
          h(
            "p",
            { class: "row" },
            h("button", { type: "button", "data-testid": "expand-all", onclick: all(true) }, "Expand all"),
            h("button", { type: "button", "data-testid": "collapse-all", onclick: all(false) }, "Collapse all"),
          ),
        ]
      : []),
    ...groups.map((g) =>
      h(
        "details",
        { class: "metric-group", "data-testid": "metric-group", "data-unit": g.unit, open: !fold },
        h(
          "summary",
          {},
          h("strong", {}, g.unit || "(no unit)"),
          ` · ${g.metrics.length} metric${g.metrics.length > 1 ? "s" : ""}: ${g.metrics
            .map((m) => m.name)
            .filter((n, i, a) => a.indexOf(n) === i)
            .join(", ")}`,
          h(
            "span",
            { class: "tally" },
            Object.entries(g.verdicts).map(([verdict, n]) => h("span", { class: `verdict verdict-${verdict}` }, ` ${n} ${verdict.replace("_", " ")}`)),
          ),
        ),
        g.metrics.map((m) => metricChart(c, m)),
      ),
    ),
  ];
}

/** The server's flag: sides of one tool measured with different builds of it, each with its version; none when they agree. */
function toolVersionsWarning(c: Comparison): HTMLElement[] {
  if (!c.tool_versions_differ.length) return [];
  const warning = h(
    "div",
    { class: "warning", role: "alert", "data-testid": "tool-versions-differ" },
    h("strong", {}, "Tool versions differ: "),
    "these figures were measured with different builds of the tool, which may account for a difference.",
    h(
      "ul",
      {},
      c.tool_versions_differ.map((s) =>
        h(
          "li",
          { "data-id": s.execution_id },
          h("a", { href: href(["executions", s.execution_id]), title: s.execution_id }, shortId(s.execution_id)),
          ` ${s.version}`,
        ),
      ),
    ),
  );
  return [warning];
}

/** The server's flag, as the versions': sides of one workload run with different params, each with its params. */
function paramsWarning(c: Comparison): HTMLElement[] {
  const sides = c.params_differ ?? [];
  if (!sides.length) return [];
  const warning = h(
    "div",
    { class: "warning", role: "alert", "data-testid": "params-differ" },
    h("strong", {}, "Params differ: "),
    "these figures were measured with different params of the workload, which may account for a difference as much as the machines.",
    h(
      "ul",
      {},
      sides.map((s) =>
        h(
          "li",
          { "data-id": s.execution_id },
          h("a", { href: href(["executions", s.execution_id]), title: s.execution_id }, shortId(s.execution_id)),
          ` ${tagsText(s.params) || "no params"}`,
        ),
      ),
    ),
  );
  return [warning];
}

/** A side's tool version as its run recorded it: each machine's packages, else its machines' `tool_version` facts. */
function toolVersion(e: ComparedExecution): string {
  const packages = e.provenance?.packages ?? [];
  if (packages.length) return [...new Set(packages.map((p) => `${p.name} ${p.version}`))].join(", ");
  return [...new Set(e.machines.map((vm) => vm.facts?.tool_version).filter(Boolean))].join(" / ");
}

function label(e: ComparedExecution | undefined, id: string): string {
  return e ? `${shortId(id)} ${e.provider}` : shortId(id);
}

/**
 * Each execution's steal and iowait during its last run, which may explain a difference: a side
 * whose run lost CPU to its neighbours, or waited for its disk. None for a run that took no samples.
 */
async function runTelemetry(ids: string[], signal: AbortSignal): Promise<Map<string, StealAndIowait | undefined>> {
  const each = await Promise.all(
    ids.map((id) =>
      api()
        .getTelemetry(id, { signal })
        .then(stealAndIowait, () => undefined),
    ),
  );
  return new Map(ids.map((id, i) => [id, each[i]]));
}

function executionsTable(c: Comparison, machinesDuring: ReadonlyMap<string, StealAndIowait | undefined>): HTMLElement {
  const machine = (e: ComparedExecution) => e.machines.map((vm) => vm.facts);
  return listTable(
    "compared-executions",
    ["Execution", "Provider", "Tool / workload", "Params", "Tool version", "CPU", "CPUs", "Memory", "Kernel", "OS", "During the run", ""],
    c.executions.map((e) => {
      const facts = machine(e);
      const join = (f: (x: NonNullable<(typeof facts)[number]>) => string | number | undefined) => facts.map((x) => (x ? String(f(x) ?? "") : "")).join(" / ");
      const isBaseline = e.id === c.baseline;
      const differs = c.tool_versions_differ.some((s) => s.execution_id === e.id);
      const paramsDiffer = (c.params_differ ?? []).some((s) => s.execution_id === e.id);
      return h(
        "tr",
        { "data-id": e.id, class: isBaseline ? "baseline" : "" },
        h("td", {}, h("a", { href: href(["executions", e.id]), title: e.id }, shortId(e.id))),
        h("td", {}, `${e.provider} (${e.service_type})`),
        h("td", {}, `${e.tool} / ${e.workload}`),
        h("td", { class: paramsDiffer ? "version-differs" : "", "data-testid": "compared-params" }, tagsText(e.params)),
        h("td", { class: differs ? "version-differs" : "", "data-testid": "tool-version" }, toolVersion(e)),
        h(
          "td",
          {},
          join((x) => x.cpu_model),
        ),
        h(
          "td",
          {},
          join((x) => x.cpu_count),
        ),
        h(
          "td",
          {},
          join((x) => bytes(x.memory_bytes)),
        ),
        h(
          "td",
          {},
          join((x) => x.kernel),
        ),
        h(
          "td",
          {},
          join((x) => x.os_release),
        ),
        h("td", { "data-testid": "steal-iowait" }, stealAndIowaitText(machinesDuring.get(e.id))),
        h(
          "td",
          {},
          isBaseline
            ? h("strong", {}, "baseline")
            : h("a", { href: href(["compare"], { ids: c.executions.map((x) => x.id).join(","), baseline: e.id }) }, "make baseline"),
        ),
      );
    }),
  );
}

function metricChart(c: Comparison, m: ComparedMetric): HTMLElement {
  const byId = new Map(c.executions.map((e) => [e.id, e]));
  const tags = tagsText(m.tags);
  const bars: Bar[] = m.figures.map((f) => ({
    label: label(byId.get(f.execution_id), f.execution_id),
    value: f.mean,
    low: f.ci_low,
    high: f.ci_high,
    note: note(f),
    tone: `verdict-${f.verdict}`,
  }));
  const title = `${m.name}${tags ? ` (${tags})` : ""}`;
  const chart = chartElement(metricBarOption(bars, { unit: m.unit, nonNegative: cannotBeNegative(m) }), {
    kind: "comparison",
    title: `${title}, ${m.unit}`,
    height: metricBarHeight(bars.length),
  });
  return h(
    "figure",
    { class: "metric", "data-metric": m.name, "data-tags": tags, "data-key": metricKey(m) },
    h("figcaption", {}, title, h("span", { class: "muted" }, ` ${m.unit}${m.better ? `, ${m.better} is better` : ""}`)),
    chart,
    h(
      "ul",
      { class: "verdicts" },
      m.figures.map((f) =>
        h(
          "li",
          { "data-execution-id": f.execution_id, "data-testid": "verdict" },
          h("span", { class: `verdict verdict-${f.verdict}` }, f.verdict.replace("_", " ")),
          ` ${label(byId.get(f.execution_id), f.execution_id)}: n=${f.n}, mean ${figure(f.mean)} [${figure(f.ci_low)}, ${figure(f.ci_high)}]`,
          f.p_value !== null ? `, p=${figure(f.p_value)}` : "",
        ),
      ),
    ),
  );
}

function note(f: MetricFigure): string {
  if (f.verdict === "baseline") return "baseline";
  const ratio = f.ratio === null ? "" : `×${figure(f.ratio)} `;
  return `${ratio}${f.verdict.replace("_", " ")}`;
}
