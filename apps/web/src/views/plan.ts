import type { Plan, PlanRun } from "@benchwright/sdk";
import { api } from "../api.js";
import { h } from "../dom.js";
import { shortId } from "../format.js";
import { paramsText, planSize, progressText } from "../plan-words.js";
import { pollUntil } from "../poll.js";
import { problemBox } from "../problem.js";
import { href } from "../router.js";
import { stateBadge } from "./badges.js";
import { listTable } from "./list-table.js";

/** How often the runs are read again while one of them has not ended. */
const POLL_MS = 2000;

/**
 * One plan: its targets and benchmarks, its runs (state and progress, read again while one is
 * under way), and the button that starts a run and opens its page.
 */
export async function planView(root: HTMLElement, planId: string, signal: AbortSignal): Promise<void> {
  const [plan, runs] = await Promise.all([api().getPlan(planId, { signal }), api().listPlanRuns(planId, { signal })]);
  const runsBody = h("tbody");
  const status = h("div", { class: "status" });
  const start = h("button", { type: "button", class: "primary", "data-testid": "start-plan-run" }, "Run");
  start.addEventListener("click", async () => {
    start.disabled = true;
    status.replaceChildren();
    try {
      const run = await api().startPlanRun(planId, { signal });
      location.hash = href(["plans", planId, "runs", run.id]);
    } catch (error) {
      start.disabled = false;
      if (!signal.aborted) status.replaceChildren(problemBox(error));
    }
  });
  root.replaceChildren(
    h("h1", {}, "Plan ", h("code", { title: plan.id }, shortId(plan.id))),
    facts(plan),
    h("h2", {}, "Targets"),
    targets(plan),
    h("h2", {}, "Benchmarks"),
    benchmarks(plan),
    h("h2", {}, "Runs"),
    listTable("plan-runs", ["Run", "Created", "State", "Progress", "Ended"], runsBody),
    h(
      "div",
      { class: "panel actions row" },
      start,
      h(
        "span",
        { class: "muted" },
        `Opens a session on each target, runs the ${plan.executions} executions, and ${plan.keep_sessions ? "keeps" : "deletes"} the sessions at the end.`,
      ),
    ),
    status,
  );
  const show = (list: PlanRun[]) => {
    runsBody.replaceChildren(...(list.length ? list.map((r) => runRow(planId, r)) : [h("tr", {}, h("td", { colspan: 5, class: "empty" }, "Not run yet"))]));
  };
  show(runs);
  // Runs under way (begun here or elsewhere) move on: read them again until each has ended.
  if (runs.some((r) => r.ended === null))
    void pollUntil(signal, POLL_MS, async () => {
      const list = await api().listPlanRuns(planId, { signal });
      if (signal.aborted) return false;
      show(list);
      return list.some((r) => r.ended === null);
    });
}

function facts(plan: Plan): HTMLElement {
  const r = plan.repetitions;
  return h(
    "dl",
    { class: "facts" },
    h("dt", {}, "Created"),
    h("dd", {}, plan.created),
    h("dt", {}, "Size"),
    h("dd", { "data-testid": "plan-size" }, planSize(plan)),
    h("dt", {}, "Baseline"),
    h("dd", {}, plan.baseline),
    h("dt", {}, "Each cell measures"),
    h("dd", {}, !r ? "once" : "count" in r ? `${r.count} times` : `until CV ≤ ${r.until_cv}, ${r.min} to ${r.max} times`),
    h("dt", {}, "Concurrency"),
    h("dd", {}, `${plan.concurrency.per_target} per target, ${plan.concurrency.overall} overall`),
    h("dt", {}, "On failure"),
    h("dd", {}, `${plan.on_failure}, ${plan.retries} retr${plan.retries === 1 ? "y" : "ies"}${plan.keep_sessions ? ", sessions kept" : ""}`),
  );
}

function targets(plan: Plan): HTMLElement {
  return listTable(
    "plan-targets",
    ["Label", "Provider", "Service", "Class", "Configuration"],
    plan.targets.map((t) =>
      h(
        "tr",
        { class: t.label === plan.baseline ? "baseline" : "" },
        h("td", {}, t.label, t.label === plan.baseline ? h("span", { class: "muted" }, " (baseline)") : null),
        h("td", {}, t.provider),
        h("td", {}, t.service),
        h("td", {}, t.class),
        h("td", {}, t.inline ? "given with the plan" : "the server's"),
      ),
    ),
  );
}

function benchmarks(plan: Plan): HTMLElement {
  return listTable(
    "plan-benchmarks",
    ["Tool / workload", "Params", "Lists", "Cells"],
    plan.benchmarks.map((b) =>
      h("tr", {}, h("td", {}, `${b.tool} / ${b.workload}`), h("td", {}, paramsText(b.params)), h("td", {}, b.zip ? "paired" : "crossed"), h("td", {}, b.cells)),
    ),
  );
}

function runRow(planId: string, run: PlanRun): HTMLElement {
  return h(
    "tr",
    { "data-testid": "plan-run-row", "data-id": run.id, "data-state": run.state },
    h("td", {}, h("a", { href: href(["plans", planId, "runs", run.id]), title: run.id }, shortId(run.id))),
    h("td", {}, run.created),
    h("td", {}, stateBadge(run.state)),
    h("td", {}, progressText(run)),
    h("td", {}, run.ended ?? ""),
  );
}
