import type { Execution, Session } from "@benchwright/sdk";
import { api } from "../api.js";
import { h } from "../dom.js";
import { problemBox } from "../problem.js";
import { href } from "../router.js";
import { prepareThenRun } from "../steps.js";

type State = Execution["state"];

/** Which steps an execution in a state may start (the API's transitions). */
export function startable(state: State): { prepare: boolean; run: boolean; busy: boolean } {
  return {
    prepare: ["created", "prepare_failed", "prepared", "completed", "run_failed"].includes(state),
    run: ["prepared", "completed", "run_failed"].includes(state),
    busy: state === "preparing" || state === "running",
  };
}

/**
 * What the user may do with an execution: prepare, run (again), both, repeat it (a new
 * execution of the same workload and parameters whose run measures several times: the API
 * sets repetitions at creation), and cancel a running step (the session stays, to prepare or
 * run again). Each step answers at once; the page follows it live.
 */
export function executionActions(): { element: HTMLElement; update(e: Execution, session: Session | undefined): void } {
  const status = h("div", { class: "status" });
  let current: Execution | undefined;
  const act = (run: () => Promise<unknown>) => async () => {
    for (const b of buttons) b.disabled = true;
    status.replaceChildren();
    try {
      await run();
    } catch (e) {
      status.replaceChildren(problemBox(e));
    } finally {
      if (current) sync(current);
    }
  };
  const id = () => current!.id;
  const prepare = h("button", { type: "button", "data-testid": "prepare", onclick: act(() => api().prepare(id(), { async: true })) }, "Prepare");
  const run = h("button", { type: "button", "data-testid": "run", onclick: act(() => api().run(id(), { async: true })) }, "Run");
  const both = h("button", { type: "button", "data-testid": "prepare-and-run", onclick: act(() => prepareThenRun(id())) }, "Prepare and run");
  const times = h("input", {
    type: "number",
    min: 2,
    max: 100,
    step: 1,
    value: "3",
    "data-testid": "repeat-count",
    "aria-label": "Measurements per run",
  });
  const repeat = h(
    "button",
    {
      type: "button",
      "data-testid": "repeat",
      onclick: act(async () => {
        const e = current!;
        const copy = await api().createExecution(e.session_id, {
          tool: e.test.tool_id,
          workload: e.test.workload_id,
          params: e.params,
          repetitions: { count: Number(times.value) },
        });
        prepareThenRun(copy.id).catch(() => {}); // the new execution's page follows it
        location.hash = href(["executions", copy.id]);
      }),
    },
    "Repeat",
  );
  const repeatGroup = h("span", { class: "repeat" }, repeat, h("label", {}, " as a new execution measuring each run ", times, " times"));
  // Stops the running prepare or run wherever it runs; the execution ends failed, and its session stays.
  const cancel = h(
    "button",
    {
      type: "button",
      class: "danger",
      "data-testid": "cancel-step",
      title: "Stop the running step; the session stays, to prepare or run again",
      onclick: act(() => api().cancelExecution(id())),
    },
    "Cancel",
  );
  const buttons = [prepare, run, both, repeat, cancel];
  const sessionNote = h("span", { class: "muted" });

  const sync = (e: Execution, open = true) => {
    const can = startable(e.state);
    prepare.disabled = !open || !can.prepare;
    prepare.textContent = e.state === "created" || e.state === "prepare_failed" ? "Prepare" : "Prepare again";
    run.disabled = !open || !can.run;
    run.textContent = e.state === "prepared" ? "Run" : "Run again";
    both.hidden = e.state !== "created" && e.state !== "prepare_failed";
    both.disabled = !open || !can.prepare;
    repeat.disabled = times.disabled = !open;
    // Offered only while a step runs.
    cancel.hidden = !open || !can.busy;
    cancel.disabled = cancel.hidden;
  };

  const controls = h("div", { class: "row" }, prepare, both, run, h("span", { class: "sep" }), repeatGroup, cancel);
  const element = h("div", { class: "panel actions", "data-testid": "execution-actions" }, controls, sessionNote, status);
  return {
    element,
    update(e, session) {
      current = e;
      const open = session?.state === "active";
      sync(e, open);
      controls.hidden = !open;
      sessionNote.textContent = open ? "" : `Its session is ${session?.state ?? "deleted"}: its results stay readable; nothing more runs in it.`;
    },
  };
}
