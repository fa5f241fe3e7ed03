import type { Execution } from "@benchwright/sdk";
import { h } from "../dom.js";
import { shortId, tagsText } from "../format.js";
import { href } from "../router.js";
import { executionStateLook } from "../state-look.js";
import { lookBadge } from "./badges.js";
import { listTable } from "./list-table.js";

/**
 * Executions with a box each to pick some for the comparison. `replace` swaps the rows and
 * keeps what is ticked, so that a live reload does not lose the user's choice.
 */
export function executionsTable(): { element: HTMLElement; replace(executions: Execution[]): void } {
  const body = h("tbody");
  const picked = new Set<string>();
  const compare = h("button", { type: "button", "data-testid": "compare-selected", disabled: true }, "Compare selected");
  const sync = () => {
    compare.disabled = picked.size < 2;
    compare.textContent = picked.size ? `Compare selected (${picked.size})` : "Compare selected";
  };
  compare.addEventListener("click", () => {
    const ids = [...body.querySelectorAll<HTMLInputElement>("input[type=checkbox]:checked")].map((c) => c.value);
    location.hash = href(["compare"], { ids: ids.join(",") });
  });
  const element = h(
    "section",
    {},
    listTable("executions", ["", "Execution", "Tool / workload", "Params", "Created", "State", "Metrics"], body),
    h("p", {}, compare),
  );
  const row = (e: Execution) =>
    h(
      "tr",
      { "data-testid": "execution-row", "data-id": e.id },
      h(
        "td",
        {},
        h("input", {
          type: "checkbox",
          value: e.id,
          "aria-label": `Pick ${shortId(e.id)} for the comparison`,
          checked: picked.has(e.id),
          onchange: (event: Event) => {
            const box = event.target as HTMLInputElement;
            if (box.checked) picked.add(box.value);
            else picked.delete(box.value);
            sync();
          },
        }),
      ),
      h("td", {}, h("a", { href: href(["executions", e.id]), title: e.id }, shortId(e.id))),
      h("td", {}, `${e.test.tool_id} / ${e.test.workload_id}`),
      // The params often decide the figures: two runs of one workload are told apart by them.
      h("td", { "data-testid": "row-params" }, tagsText(e.params)),
      h("td", {}, e.created),
      h("td", {}, lookBadge(e.state, executionStateLook(e))),
      h("td", {}, String(e.metrics.length)),
    );
  return {
    element,
    replace(executions) {
      body.replaceChildren(...(executions.length ? executions.map(row) : [h("tr", {}, h("td", { colspan: 7, class: "empty" }, "No execution yet"))]));
      sync();
    },
  };
}
