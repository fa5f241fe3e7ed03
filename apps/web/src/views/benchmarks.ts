import type { Benchmark } from "@benchwright/sdk";
import { api } from "../api.js";
import { h } from "../dom.js";
import { href } from "../router.js";
import { sourceText } from "../source-words.js";
import { listTable } from "./list-table.js";

/** The catalogue's benchmarks, each with where its definition comes from and its version; a row opens its definition. */
export async function benchmarksView(root: HTMLElement, signal: AbortSignal): Promise<void> {
  const benchmarks = await api().listBenchmarks({ signal });
  root.replaceChildren(
    h("h1", {}, "Benchmarks"),
    h(
      "p",
      { class: "muted" },
      "Built-in and file definitions are read-only; a team's are written with the API or ",
      h("code", {}, "benchwright benchmark push"),
      ", each write a new version.",
    ),
    listTable(
      "benchmarks",
      ["Benchmark", "Name", "Workloads", "Source", "Version", "Written"],
      benchmarks.length ? benchmarks.map(row) : [h("tr", {}, h("td", { colspan: 6, class: "empty" }, "No benchmark"))],
    ),
  );
}

function row(b: Benchmark): HTMLElement {
  return h(
    "tr",
    { "data-testid": "benchmark-row", "data-id": b.id },
    h("td", {}, h("a", { href: href(["benchmarks", b.id]) }, b.id), b.aliases.length ? h("span", { class: "muted" }, ` (${b.aliases.join(", ")})`) : null),
    h("td", {}, b.tool_name),
    h("td", {}, b.workloads.map((w) => w.id).join(", ")),
    h("td", { "data-testid": "benchmark-source" }, sourceText(b.source)),
    h("td", { "data-testid": "benchmark-version" }, String(b.version ?? "")),
    h("td", {}, [b.updated, b.updated_by].filter(Boolean).join(" by ")),
  );
}
