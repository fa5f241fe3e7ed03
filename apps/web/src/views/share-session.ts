import type { Session } from "@benchwright/sdk";
import { api } from "../api.js";
import { h } from "../dom.js";
import { problemBox } from "../problem.js";

/**
 * Whose the session is and whether the team reads it, with the button that changes it while the
 * session is open. No event says a session was shared: `done` reloads the page's record.
 */
export function sessionSharing(session: Session, done: () => void, changeable = true): HTMLElement {
  const shared = session.shared === true;
  const status = h("span", { class: "status" });
  const what = h(
    "span",
    { "data-testid": "session-shared", "data-shared": String(shared) },
    `${session.owner ?? "?"} · ${shared ? "shared: every token of this server reads it and its results" : "not shared: only its owner and admins read it"}`,
  );
  if (session.state !== "active" || !changeable) return h("span", {}, what);
  const toggle = h("button", { type: "button", "data-testid": "toggle-shared", onclick: () => void change() }, shared ? "Stop sharing" : "Share with the team");
  async function change(): Promise<void> {
    toggle.disabled = true;
    try {
      await api().updateSession(session.id, { shared: !shared });
      done();
    } catch (e) {
      status.replaceChildren(problemBox(e));
      toggle.disabled = false;
    }
  }
  return h("span", {}, what, " ", toggle, status);
}
