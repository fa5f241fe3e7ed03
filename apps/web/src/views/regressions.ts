import { api } from "../api.js";
import { h } from "../dom.js";
import { changesTable } from "./changes-table.js";

/** The open regressions of every series, newest first, each linked to its series. */
export async function regressionsView(root: HTMLElement, signal: AbortSignal): Promise<void> {
  const changes = await api().listChanges({ direction: "regression", state: "open", signal });
  root.replaceChildren(
    h("h1", {}, "Regressions"),
    h("p", { class: "muted" }, "Changes of level for the worse, not yet acknowledged: open a series to see its trend."),
    changesTable("regressions", changes, true, signal),
  );
}
