import type { Benchmark, ExecutionCreate } from "@benchwright/sdk";
import { api } from "../api.js";
import { h } from "../dom.js";
import { paramsForm, type ParamsForm, workloadAbout } from "../params-form.js";
import { fieldErrors, problemBox, problemOf } from "../problem.js";
import { href } from "../router.js";
import { prepareThenRun } from "../steps.js";

/**
 * Creates an execution in the session: a tool and a workload from the catalogue, the workload's
 * parameters as a form made from their declarations (types, bounds, defaults), and how often
 * each run measures. "Create, prepare and run" goes on with both steps; the execution's page
 * follows them live.
 */
export function newExecutionForm(sessionId: string, catalogue: Benchmark[]): HTMLElement {
  const tool = h(
    "select",
    { name: "tool", "data-testid": "tool", "aria-label": "Tool", onchange: () => fillWorkloads() },
    catalogue.map((b) => h("option", { value: b.id }, b.tool_name === b.id ? b.id : `${b.id} (${b.tool_name})`)),
  );
  const workload = h("select", { name: "workload", "data-testid": "workload", "aria-label": "Workload", onchange: () => fillParams() });
  const about = h("p", { class: "muted", "data-testid": "workload-description" });
  const paramsSlot = h("div");
  const repetitions = h("input", {
    type: "number",
    id: "repetitions",
    name: "repetitions",
    min: 1,
    max: 100,
    step: 1,
    value: "1",
    "data-testid": "repetitions",
    "aria-label": "Measurements per run",
  });
  const status = h("div", { class: "status" });
  const create = h("button", { type: "submit", value: "create", "data-testid": "create-execution" }, "Create");
  const createAndRun = h("button", { type: "submit", value: "run", "data-testid": "create-and-run" }, "Create, prepare and run");
  let params: ParamsForm = paramsForm([]);

  const benchmark = () => catalogue.find((b) => b.id === tool.value);
  const fillWorkloads = () => {
    workload.replaceChildren(...(benchmark()?.workloads ?? []).map((w) => h("option", { value: w.id }, `${w.id}: ${w.workload_name}`)));
    fillParams();
  };
  const fillParams = () => {
    // `params` may be missing: the contract's own catalogue example (the Prism mock's answer) has none.
    const w = benchmark()?.workloads.find((x) => x.id === workload.value);
    about.textContent = w ? workloadAbout(w) : "";
    params = paramsForm(w?.params ?? []);
    paramsSlot.replaceChildren(params.element);
    status.replaceChildren();
  };

  const form = h(
    "form",
    { class: "panel", "data-testid": "new-execution", onsubmit: (event: Event) => void submit(event as SubmitEvent) },
    h("h2", {}, "New execution"),
    h("div", { class: "row" }, h("label", {}, "Tool ", tool), h("label", {}, "Workload ", workload)),
    about,
    paramsSlot,
    h(
      "div",
      { class: "field" },
      h("label", { for: "repetitions" }, "Measurements per run"),
      repetitions,
      h("span", { class: "hint" }, "More than 1: each metric reports its mean, spread and 95% confidence interval (drawn as error bars)."),
    ),
    h("p", { class: "actions" }, create, createAndRun),
    status,
  );
  fillWorkloads();

  async function submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const andRun = (event.submitter as HTMLButtonElement | null)?.value === "run";
    const count = Number(repetitions.value || "1");
    const body: ExecutionCreate = { tool: tool.value, workload: workload.value, params: params.values() };
    if (count > 1) body.repetitions = { count };
    for (const b of [create, createAndRun]) b.disabled = true;
    status.replaceChildren();
    params.showErrors(new Map());
    try {
      const execution = await api().createExecution(sessionId, body);
      if (andRun) prepareThenRun(execution.id).catch(() => {}); // the execution's page shows how it went
      location.hash = href(["executions", execution.id]);
    } catch (e) {
      params.showErrors(fieldErrors(problemOf(e), "/body/params/"));
      status.replaceChildren(problemBox(e));
    } finally {
      for (const b of [create, createAndRun]) b.disabled = false;
    }
  }
  return form;
}
