import { api } from "../api.js";
import { h } from "../dom.js";
import { onChanges } from "../live.js";
import { stateBadge } from "./badges.js";
import { executionsTable } from "./executions-table.js";

/** One session and its executions, reloaded as they change. */
export async function sessionView(root: HTMLElement, sessionId: string, signal: AbortSignal): Promise<void> {
  const session = await api().getSession(sessionId, { signal });
  const table = executionsTable();
  const p = session.provider;
  root.replaceChildren(
    h("h1", {}, "Session ", h("code", {}, session.id)),
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, "Provider"),
      h("dd", {}, `${p.id} (${[p.class, p.type, p.driver, p.region].filter(Boolean).join(", ")})`),
      h("dt", {}, "Created"),
      h("dd", {}, session.created),
      h("dt", {}, "State"),
      h("dd", {}, stateBadge(session.state, "session-state")),
    ),
    h("h2", {}, "Executions"),
    table.element,
  );
  const load = async () => table.replace(await api().listSessionExecutions(sessionId, { signal }));
  await load();
  onChanges({ sessionId, types: ["execution.created", "execution.state"] }, signal, () => void load().catch(() => {}));
}
