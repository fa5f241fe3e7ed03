import type { Session } from "@benchwright/sdk";
import { api } from "../api.js";
import { h } from "../dom.js";
import { onChanges } from "../live.js";
import { problemBox } from "../problem.js";
import { findSession, type SessionSeen } from "../session-record.js";
import { stateBadge } from "./badges.js";
import { executionsTable } from "./executions-table.js";
import { newExecutionForm } from "./new-execution.js";
import { deleteSessionButton } from "./delete-session.js";
import { sessionSharing } from "./share-session.js";
import { deletedSessionFacts } from "./deleted-session.js";
import { caller, mayChange } from "../caller.js";

/**
 * One session and its executions, reloaded as they change; while it is open, the form that
 * creates executions in it and the button that deletes it. A deleted session is shown greyed,
 * its executions still there to open.
 */
export async function sessionView(root: HTMLElement, sessionId: string, signal: AbortSignal): Promise<void> {
  const [seen, catalogue, who] = await Promise.all([findSession(sessionId, signal), api().listBenchmarks({ signal }), caller()]);
  const table = executionsTable();
  const facts = h("div");
  const actions = h("div");
  root.replaceChildren(h("h1", {}, "Session ", h("code", {}, sessionId)), facts, h("h2", {}, "Executions"), table.element, actions);

  let formShown = false;
  const render = ({ session, executions, deleted: deletedAt }: SessionSeen) => {
    const deleted = session?.state === "deleted" || !session;
    root.classList.toggle("deleted", deleted);
    // Only what the caller's role allows: creating in, sharing or deleting a session is its owner's (or an admin's).
    const changeable = session !== undefined && mayChange(who, session);
    facts.replaceChildren(session ? sessionFacts(session, () => void load(), changeable) : deletedSessionFacts(sessionId, deletedAt));
    table.replace(executions);
    if (session?.state === "active" && changeable && !formShown) {
      formShown = true;
      actions.replaceChildren(
        newExecutionForm(sessionId, catalogue),
        deleteSessionButton(sessionId, () => void load()),
      );
    } else if (session?.state !== "active" || !changeable) {
      formShown = false;
      actions.replaceChildren();
    }
  };
  const load = async () => {
    try {
      render(await findSession(sessionId, signal));
    } catch (error) {
      if (!signal.aborted) actions.replaceChildren(problemBox(error));
    }
  };
  render(seen);
  // From the session's first event, as the execution page does: nothing between the read and the stream's start is missed.
  onChanges({ sessionId, types: ["session.state", "execution.created", "execution.state"], lastEventId: 0 }, signal, () => void load());
}

function sessionFacts(session: Session, reload: () => void, changeable: boolean): HTMLElement {
  const p = session.provider;
  return h(
    "dl",
    { class: "facts" },
    h("dt", {}, "Provider"),
    h("dd", {}, `${p.id} (${[p.class, p.type, p.driver, p.region].filter(Boolean).join(", ")})`),
    h("dt", {}, "Created"),
    h("dd", {}, session.created),
    h("dt", {}, "Owner"),
    h("dd", {}, sessionSharing(session, reload, changeable)),
    h("dt", {}, "State"),
    h(
      "dd",
      {},
      stateBadge(session.state, "session-state"),
      session.state === "deleted"
        ? h(
            "span",
            { class: "muted", "data-testid": "session-deleted" },
            ` ${session.deleted ?? ""}: its machines are gone; its executions, logs and metrics stay`,
          )
        : null,
    ),
  );
}
