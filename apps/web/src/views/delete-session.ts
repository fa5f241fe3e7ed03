import { api } from "../api.js";
import { h } from "../dom.js";
import { problemBox } from "../problem.js";

/**
 * Deletes the session after a second click that says what goes: its running steps are stopped,
 * its machines and work dirs destroyed; its executions, logs and metrics stay.
 */
export function deleteSessionButton(sessionId: string, done: () => void): HTMLElement {
  const status = h("div", { class: "status" });
  const ask = h("button", { type: "button", class: "danger", "data-testid": "delete-session", onclick: () => confirming(true) }, "Delete session");
  const confirm = h("button", { type: "button", class: "danger", "data-testid": "confirm-delete-session", onclick: () => void remove() }, "Delete it");
  const keep = h("button", { type: "button", onclick: () => confirming(false) }, "Keep it");
  const question = h(
    "span",
    { class: "confirm" },
    "Stop its running steps and destroy its machines? Its executions, logs and metrics stay. ",
    confirm,
    " ",
    keep,
  );
  const confirming = (on: boolean) => {
    ask.hidden = on;
    question.hidden = !on;
  };
  confirming(false);
  async function remove(): Promise<void> {
    confirm.disabled = keep.disabled = true;
    question.firstChild!.textContent = "Deleting… ";
    try {
      await api().deleteSession(sessionId);
      done();
    } catch (e) {
      status.replaceChildren(problemBox(e));
      confirm.disabled = keep.disabled = false;
      confirming(false);
    }
  }
  return h("div", { class: "panel delete-session" }, ask, question, status);
}
