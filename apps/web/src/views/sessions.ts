import type { Session } from "@benchwright/sdk";
import { api, isUnauthorized } from "../api.js";
import { h } from "../dom.js";
import { shortId } from "../format.js";
import { onChanges } from "../live.js";
import { problemBox } from "../problem.js";
import { href, type Route } from "../router.js";
import { listSessions, type SessionsShown } from "../sessions-list.js";
import { stateBadge } from "./badges.js";
import { listTable } from "./list-table.js";
import { newSessionForm } from "./new-session.js";
import { caller, mayCreate } from "../caller.js";

const SHOWN: Array<[SessionsShown, string]> = [
  ["open", "Open sessions"],
  ["deleted", "Deleted sessions"],
  ["all", "All sessions"],
];

/**
 * The sessions (open ones, or with `?show=deleted|all` deleted ones too, greyed), with their
 * executions' states, reloaded as they change; and the form that opens a new one.
 */
export async function sessionsView(root: HTMLElement, route: Route, signal: AbortSignal): Promise<void> {
  const shown = (SHOWN.find(([k]) => k === route.query.get("show"))?.[0] ?? "open") as SessionsShown;
  const table = h("tbody");
  const status = h("div");
  const filter = h(
    "select",
    {
      "data-testid": "sessions-filter",
      "aria-label": "Which sessions",
      onchange: (event: Event) => {
        const value = (event.target as HTMLSelectElement).value;
        location.hash = href(["sessions"], value === "open" ? undefined : { show: value });
      },
    },
    SHOWN.map(([value, label]) => h("option", { value, selected: value === shown }, label)),
  );
  // A 401 answers for the page (it asks for the token); other problems show in place.
  const unlessUnauthorized =
    <T>(fallback: (error: unknown) => T) =>
    (error: unknown): T => {
      if (isUnauthorized(error)) throw error;
      return fallback(error);
    };
  const [first, providers, who] = await Promise.all([
    listSessions(shown, signal).catch(unlessUnauthorized((error) => ({ error }))),
    // No stored configuration to offer: a pasted one still opens a session.
    api()
      .listProviders({ signal })
      .catch(unlessUnauthorized(() => [])),
    caller().catch(unlessUnauthorized(() => undefined)),
  ]);
  root.replaceChildren(
    h("div", { class: "heading" }, h("h1", {}, "Sessions"), h("label", { class: "filter" }, "Show ", filter)),
    listTable("sessions", ["Session", "Provider", "Created", "State", "Executions"], table),
    status,
    // A viewer is offered no form it would be refused (403).
    mayCreate(who)
      ? newSessionForm(providers)
      : h("p", { class: "muted", "data-testid": "read-only" }, "Your role (viewer) reads sessions; it does not open them."),
  );
  const show = (sessions: Session[]) => {
    status.replaceChildren();
    table.replaceChildren(
      ...(sessions.length
        ? sessions.map(row)
        : [h("tr", {}, h("td", { colspan: 5, class: "empty" }, shown === "deleted" ? "No deleted session" : "No session yet"))]),
    );
  };
  const load = async () => {
    try {
      show(await listSessions(shown, signal));
    } catch (error) {
      if (!signal.aborted) status.replaceChildren(problemBox(error));
    }
  };
  if (Array.isArray(first)) show(first);
  else status.replaceChildren(problemBox(first.error));
  onChanges({ types: ["session.created", "session.state", "execution.created", "execution.state"] }, signal, () => void load());
}

function row(session: Session): HTMLElement {
  const p = session.provider;
  const deleted = session.state === "deleted";
  return h(
    "tr",
    { "data-testid": "session-row", "data-id": session.id, "data-state": session.state, class: deleted ? "deleted" : "" },
    h("td", {}, h("a", { href: href(["sessions", session.id]), title: session.id }, shortId(session.id))),
    h("td", {}, p.id, h("span", { class: "muted" }, ` ${[p.class, p.driver, p.region].filter(Boolean).join(" · ")}`)),
    h("td", {}, session.created),
    h("td", {}, stateBadge(session.state), deleted && session.deleted ? h("span", { class: "muted" }, ` ${session.deleted}`) : null),
    h(
      "td",
      { class: "badges" },
      session.executions.map((e) => h("a", { href: href(["executions", e.id]), title: `${e.test.tool_id}/${e.test.workload_id}` }, stateBadge(e.state))),
    ),
  );
}
