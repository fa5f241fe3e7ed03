import type { Session } from "@benchwright/sdk";
import { api } from "../api.js";
import { h } from "../dom.js";
import { shortId } from "../format.js";
import { onChanges } from "../live.js";
import { href } from "../router.js";
import { stateBadge } from "./badges.js";

/** Every session that is not deleted, with its executions' states; reloaded as they change. */
export async function sessionsView(root: HTMLElement, signal: AbortSignal): Promise<void> {
  const table = h("tbody");
  root.replaceChildren(
    h("h1", {}, "Sessions"),
    h(
      "table",
      { class: "list", "data-testid": "sessions" },
      h("thead", {}, h("tr", {}, h("th", {}, "Session"), h("th", {}, "Provider"), h("th", {}, "Created"), h("th", {}, "State"), h("th", {}, "Executions"))),
      table,
    ),
  );
  const load = async () => {
    const sessions = await api().listSessions({ signal });
    table.replaceChildren(...(sessions.length ? sessions.map(row) : [h("tr", {}, h("td", { colspan: 5, class: "empty" }, "No session yet"))]));
  };
  await load();
  onChanges({ types: ["session.created", "session.state", "execution.created", "execution.state"] }, signal, () => void load().catch(() => {}));
}

function row(session: Session): HTMLElement {
  const p = session.provider;
  return h(
    "tr",
    { "data-testid": "session-row", "data-id": session.id },
    h("td", {}, h("a", { href: href(["sessions", session.id]), title: session.id }, shortId(session.id))),
    h("td", {}, p.id, h("span", { class: "muted" }, ` ${[p.class, p.driver, p.region].filter(Boolean).join(" · ")}`)),
    h("td", {}, session.created),
    h("td", {}, stateBadge(session.state)),
    h(
      "td",
      { class: "badges" },
      session.executions.map((e) => h("a", { href: href(["executions", e.id]), title: `${e.test.tool_id}/${e.test.workload_id}` }, stateBadge(e.state))),
    ),
  );
}
