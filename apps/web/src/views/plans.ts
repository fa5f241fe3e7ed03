import type { Plan } from "@benchwright/sdk";
import { api } from "../api.js";
import { h } from "../dom.js";
import { shortId } from "../format.js";
import { onChanges } from "../live.js";
import { planSize } from "../plan-words.js";
import { problemBox } from "../problem.js";
import { href } from "../router.js";
import { listTable } from "./list-table.js";

/** The stored plans, each with its size (targets × cells = executions), reloaded as plans come and go. */
export async function plansView(root: HTMLElement, signal: AbortSignal): Promise<void> {
  const body = h("tbody");
  const status = h("div", { class: "status" });
  const show = (plans: Plan[]) => {
    body.replaceChildren(...(plans.length ? plans.map(row) : [h("tr", {}, h("td", { colspan: 6, class: "empty" }, "No plan yet"))]));
  };
  show(await api().listPlans({ signal }));
  root.replaceChildren(
    h("h1", {}, "Plans"),
    h(
      "p",
      { class: "muted" },
      "A plan is a campaign: its benchmarks on each of its targets. Plans are made with the API or ",
      h("code", {}, "benchwright plan create"),
      "; open one to run it.",
    ),
    listTable("plans", ["Plan", "Created", "Targets", "Benchmarks", "Size", "Baseline"], body),
    status,
  );
  const reload = async () => {
    try {
      show(await api().listPlans({ signal }));
      status.replaceChildren();
    } catch (error) {
      if (!signal.aborted) status.replaceChildren(problemBox(error));
    }
  };
  onChanges({ types: ["plan.created", "plan.deleted"] }, signal, () => void reload());
}

function row(plan: Plan): HTMLElement {
  return h(
    "tr",
    { "data-testid": "plan-row", "data-id": plan.id },
    h("td", {}, h("a", { href: href(["plans", plan.id]), title: plan.id }, shortId(plan.id))),
    h("td", {}, plan.created),
    h("td", {}, plan.targets.map((t) => t.label).join(", ")),
    h("td", {}, plan.benchmarks.map((b) => `${b.tool}/${b.workload}`).join(", ")),
    h("td", { "data-testid": "plan-size" }, planSize(plan)),
    h("td", {}, plan.baseline),
  );
}
