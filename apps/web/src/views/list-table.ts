import { h } from "../dom.js";

/**
 * A dashboard list: `table.list` under its test id (the e2e tests find it by that), a header row
 * of `headers`, then `body`: the rows, or a `tbody` the caller keeps to swap them on a reload.
 */
export function listTable(testId: string, headers: string[], body: HTMLElement[] | HTMLTableSectionElement): HTMLTableElement {
  return h(
    "table",
    { class: "list", "data-testid": testId },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        headers.map((label) => h("th", {}, label)),
      ),
    ),
    Array.isArray(body) ? h("tbody", {}, body) : body,
  );
}
