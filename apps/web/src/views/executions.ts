import { api } from "../api.js";
import { h } from "../dom.js";
import { onChanges } from "../live.js";
import { executionsTable } from "./executions-table.js";

/** Every execution, deleted sessions' too: where executions are picked for a comparison. */
export async function executionsView(root: HTMLElement, signal: AbortSignal): Promise<void> {
  const table = executionsTable();
  root.replaceChildren(h("h1", {}, "Executions"), h("p", { class: "muted" }, "Tick two or more to compare them."), table.element);
  const load = async () => table.replace(await api().listExecutions({ signal }));
  await load();
  onChanges({ types: ["execution.created", "execution.state"] }, signal, () => void load().catch(() => {}));
}
