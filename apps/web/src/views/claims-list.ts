import type { ClaimLine } from "../claim-lines.js";
import { h } from "../dom.js";

/** The claims with their sentences and adjusted p-values, under a heading; nothing without a claim. */
export function claimsList(lines: readonly ClaimLine[], margin: number | undefined): HTMLElement[] {
  if (!lines.length) return [];
  return [
    h("h2", {}, "Claims"),
    h("p", { class: "muted" }, `With a margin of ${((margin ?? 0) * 100).toFixed(1)}%; p-values adjusted together (Holm).`),
    h(
      "ul",
      { "data-testid": "claims" },
      lines.map((l) =>
        h("li", { "data-claim": l.verdict }, h("b", {}, l.verdictText), `: ${l.sentence} `, h("small", { class: "muted" }, `adjusted p ${l.pAdjusted}`)),
      ),
    ),
  ];
}
