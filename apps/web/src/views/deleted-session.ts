import { h } from "../dom.js";
import { href } from "../router.js";
import { stateBadge } from "./badges.js";

/**
 * What the page says of a session the server answers as gone (410, or 404 on an older
 * server): deleted, when, and where its record is still listed; its executions follow.
 */
export function deletedSessionFacts(id: string, deleted: string | undefined): HTMLElement {
  return h(
    "dl",
    { class: "facts" },
    h("dt", {}, "State"),
    h(
      "dd",
      {},
      stateBadge("deleted", "session-state"),
      h(
        "span",
        { class: "muted", "data-testid": "session-deleted" },
        deleted
          ? ` ${deleted}: its machines are gone; its executions, logs and metrics stay`
          : ` (this server keeps no record of deleted session ${id}; its executions stay)`,
      ),
    ),
    h("dt", {}, "Record"),
    h("dd", {}, h("a", { href: href(["sessions"], { show: "deleted" }) }, "Deleted sessions")),
  );
}
