import { BenchwrightProblemError, type Benchmark, type BenchmarkVersion } from "@benchwright/sdk";
import { stringify } from "yaml";
import { api } from "../api.js";
import { h } from "../dom.js";
import { shortDigest } from "../format.js";
import { sourceText } from "../source-words.js";
import { listTable } from "./list-table.js";

/**
 * One benchmark definition: what it is, its workloads and metrics, and, for a team's written
 * through the API, every version (digest, when and by whom) and the latest as written. A
 * deleted one has no current definition, but its versions stay readable (executions made on
 * them link here), so they are shown alone.
 */
export async function benchmarkView(root: HTMLElement, id: string, signal: AbortSignal): Promise<void> {
  const current = await api()
    .getBenchmark(id, { signal })
    .catch((error: unknown) => {
      if (error instanceof BenchwrightProblemError && error.status === 404) return undefined;
      throw error;
    });
  // Built-in tools and files' have no stored versions: only the API's (and a deleted one's) are read.
  const versions = !current || current.source === "api" ? await api().listBenchmarkVersions(id, { signal }) : [];
  root.replaceChildren(
    h("h1", {}, "Benchmark ", h("code", {}, id)),
    ...(current ? definition(current) : [h("p", { class: "muted", "data-testid": "benchmark-deleted" }, "Deleted: new executions can no longer choose it.")]),
    ...history(current, versions),
  );
}

function definition(b: Benchmark): HTMLElement[] {
  return [
    h(
      "dl",
      { class: "facts", "data-testid": "benchmark-facts" },
      h("dt", {}, "Name"),
      h("dd", {}, b.tool_name),
      b.description ? [h("dt", {}, "Description"), h("dd", {}, b.description)] : null,
      b.aliases.length ? [h("dt", {}, "Also answers to"), h("dd", {}, b.aliases.join(", "))] : null,
      h("dt", {}, "Source"),
      h("dd", { "data-testid": "benchmark-source" }, `${sourceText(b.source)}${b.read_only ? " (read-only)" : ""}`),
      h("dt", {}, "Version"),
      h("dd", { "data-testid": "benchmark-version" }, String(b.version ?? "")),
      b.digest ? [h("dt", {}, "Digest"), h("dd", {}, h("code", { title: b.digest }, shortDigest(b.digest)))] : null,
      b.updated ? [h("dt", {}, "Written"), h("dd", {}, [b.updated, b.updated_by].filter(Boolean).join(" by "))] : null,
    ),
    h("h2", {}, "Workloads"),
    listTable(
      "benchmark-workloads",
      ["Workload", "Name", "Parameters"],
      b.workloads.map((w) =>
        h("tr", {}, h("td", {}, w.id), h("td", { title: w.workload_description }, w.workload_name), h("td", {}, w.params.map((p) => p.name).join(", "))),
      ),
    ),
    h("h2", {}, "Metrics"),
    listTable(
      "benchmark-metrics",
      ["Metric", "Unit", "Better"],
      b.metrics.map((m) => h("tr", {}, h("td", { title: m.description ?? "" }, m.name), h("td", {}, m.unit), h("td", {}, m.better))),
    ),
  ];
}

/** The versions, the latest first, and the latest's document; a built-in's or a file's says it has none. */
function history(current: Benchmark | undefined, versions: BenchmarkVersion[]): HTMLElement[] {
  if (current && current.source !== "api") {
    return [h("p", { class: "muted", "data-testid": "no-history" }, `A ${sourceText(current.source)} definition has no history: it changes with the server.`)];
  }
  const latest = versions[0];
  const shown: HTMLElement[] = [
    h("h2", {}, "History"),
    listTable(
      "benchmark-versions",
      ["Version", "Digest", "Written", "By", "Deleted"],
      versions.map((v) =>
        h(
          "tr",
          { "data-testid": "benchmark-version-row", "data-version": v.version },
          h("td", {}, String(v.version)),
          h("td", {}, h("code", { title: v.digest }, shortDigest(v.digest))),
          h("td", {}, v.created),
          h("td", {}, v.created_by ?? ""),
          h("td", {}, v.deleted ?? ""),
        ),
      ),
    ),
  ];
  if (latest?.definition) {
    shown.push(
      h("h2", {}, `Version ${latest.version} as written`),
      h("pre", { class: "log", "data-testid": "benchmark-document" }, stringify(latest.definition)),
    );
  }
  return shown;
}
