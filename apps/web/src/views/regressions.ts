import { api } from "../api.js";
import { h } from "../dom.js";
import { onChanges } from "../live.js";
import { problemBox } from "../problem.js";
import { changesTable } from "./changes-table.js";

/** The open regressions of every series, newest first, each linked to its series; reloaded as changes are found. */
export async function regressionsView(root: HTMLElement, signal: AbortSignal): Promise<void> {
  const load = async () => changesTable("regressions", await api().listChanges({ direction: "regression", state: "open", signal }), true, signal);
  const list = h("div", {}, await load());
  const status = h("div", { class: "status" });
  root.replaceChildren(
    h("h1", {}, "Regressions"),
    h("p", { class: "muted" }, "Changes of level for the worse, not yet acknowledged: open a series to see its trend."),
    list,
    status,
  );
  onChanges({ types: ["change.detected"] }, signal, async () => {
    try {
      list.replaceChildren(await load());
      status.replaceChildren();
    } catch (error) {
      if (!signal.aborted) status.replaceChildren(problemBox(error));
    }
  });
}
