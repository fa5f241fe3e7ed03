import type { Execution, Metric, StepName, StepRecord, Vm } from "@benchwright/sdk";
import { api, describeError } from "../api.js";
import { barChart, type Bar } from "../bar-chart.js";
import { h } from "../dom.js";
import { bytes, shortId, tagsText } from "../format.js";
import { onChanges } from "../live.js";
import { href } from "../router.js";
import { stateBadge } from "./badges.js";

/**
 * One execution: its state, steps, machines' facts and metrics, reloaded on each of its events,
 * and a step's log: followed live while the step runs, else read whole.
 */
export async function executionView(root: HTMLElement, execId: string, signal: AbortSignal): Promise<void> {
  const details = h("div");
  const logTabs = h("div", { class: "tabs", "data-testid": "log-steps" });
  const logText = h("pre", { class: "log", "data-testid": "log" });
  const logTitle = h("h2", {}, "Log");
  root.replaceChildren(details, logTitle, logTabs, logText);

  let shown: { step: StepName; attempt: number; running: boolean } | undefined;
  let pinned = false; // the user picked a step: live reloads leave the log alone
  let logAbort: AbortController | undefined;

  const showLog = (record: StepRecord) => {
    logAbort?.abort();
    const aborter = new AbortController();
    logAbort = aborter;
    signal.addEventListener("abort", () => aborter.abort(), { once: true });
    const running = record.state === "running";
    shown = { step: record.step, attempt: record.attempt, running };
    logTitle.textContent = `Log of ${record.step} #${record.attempt}${running ? " (live)" : ""}`;
    logText.textContent = "";
    void (async () => {
      try {
        for await (const text of api().logs(execId, { step: record.step, attempt: record.attempt, follow: running, signal: aborter.signal })) {
          if (aborter.signal.aborted) return;
          const atBottom = logText.scrollTop + logText.clientHeight >= logText.scrollHeight - 4;
          logText.append(text);
          if (atBottom) logText.scrollTop = logText.scrollHeight;
        }
        if (!logText.textContent) logText.textContent = "(empty)";
      } catch (error) {
        if (!aborter.signal.aborted) logText.textContent = `(no log: ${describeError(error)})`;
      }
    })();
  };

  const render = (execution: Execution) => {
    details.replaceChildren(...summary(execution), ...steps(execution), ...machines(execution.exec_env.vms), ...metrics(execution.metrics));
    logTabs.replaceChildren(
      ...execution.steps.map((record) =>
        h(
          "button",
          {
            type: "button",
            class: shown?.step === record.step && shown.attempt === record.attempt ? "active" : "",
            onclick: () => {
              pinned = true;
              showLog(record);
              render(execution);
            },
          },
          `${record.step} #${record.attempt}`,
        ),
      ),
    );
    const last = execution.steps[execution.steps.length - 1];
    if (!last) {
      logTitle.textContent = "Log";
      logText.textContent = "(no step has started)";
      return;
    }
    // Follow the newest step unless the user chose one; reread a step that was live and has ended.
    const newest = !shown || shown.step !== last.step || shown.attempt !== last.attempt;
    const ended = shown?.running && shown.step === last.step && shown.attempt === last.attempt && last.state !== "running";
    if ((!pinned && newest) || ended) {
      showLog(last);
      render(execution);
    }
  };

  const load = async () => render(await api().getExecution(execId, { signal }));
  await load();
  onChanges({ executionId: execId, types: ["execution.state", "step.started", "step.finished"] }, signal, () => void load().catch(() => {}));
}

function summary(e: Execution): HTMLElement[] {
  const params = Object.entries(e.params ?? {});
  return [
    h("h1", {}, `${e.test.tool_name} / ${e.test.workload_name} `, h("code", { title: e.id }, shortId(e.id))),
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, "State"),
      h("dd", {}, stateBadge(e.state, "execution-state")),
      h("dt", {}, "Session"),
      h("dd", {}, h("a", { href: href(["sessions", e.session_id]) }, e.session_id)),
      h("dt", {}, "Created"),
      h("dd", {}, e.created),
      h("dt", {}, "Workload"),
      h("dd", {}, e.test.workload_description),
      h("dt", {}, "Parameters"),
      h("dd", {}, params.length ? params.map(([k, v]) => `${k}=${String(v)}`).join(", ") : "none"),
    ),
  ];
}

function steps(e: Execution): HTMLElement[] {
  if (!e.steps.length) return [];
  return [
    h("h2", {}, "Steps"),
    h(
      "table",
      { class: "list", "data-testid": "steps" },
      h("thead", {}, h("tr", {}, h("th", {}, "Step"), h("th", {}, "Attempt"), h("th", {}, "State"), h("th", {}, "Started"), h("th", {}, "Duration (s)"), h("th", {}, "Exit code"), h("th", {}, "Error"))),
      h(
        "tbody",
        {},
        e.steps.map((s) =>
          h(
            "tr",
            {},
            h("td", {}, s.step),
            h("td", {}, s.attempt),
            h("td", {}, stateBadge(s.state)),
            h("td", {}, s.started ?? ""),
            h("td", {}, s.duration ?? ""),
            h("td", {}, s.exit_code ?? ""),
            h("td", { class: "error" }, s.error ?? ""),
          ),
        ),
      ),
    ),
  ];
}

function machines(vms: Vm[]): HTMLElement[] {
  if (!vms.length) return [];
  return [
    h("h2", {}, "Machines"),
    h(
      "table",
      { class: "list", "data-testid": "machines" },
      h("thead", {}, h("tr", {}, h("th", {}, "Machine"), h("th", {}, "Address"), h("th", {}, "Platform"), h("th", {}, "CPU"), h("th", {}, "CPUs"), h("th", {}, "Memory"), h("th", {}, "Kernel"), h("th", {}, "OS"))),
      h(
        "tbody",
        {},
        vms.map((vm) =>
          h(
            "tr",
            {},
            h("td", {}, vm.id),
            h("td", {}, vm.ip),
            h("td", {}, vm.platform),
            h("td", {}, vm.facts?.cpu_model ?? ""),
            h("td", {}, vm.facts?.cpu_count ?? ""),
            h("td", {}, bytes(vm.facts?.memory_bytes)),
            h("td", {}, vm.facts?.kernel ?? ""),
            h("td", {}, vm.facts?.os_release ?? ""),
          ),
        ),
      ),
    ),
  ];
}

/** One chart per metric name (its figures share a unit), one bar per figure (tags, machine). */
function metrics(list: Metric[]): Element[] {
  if (!list.length) return [h("h2", {}, "Metrics"), h("p", { class: "muted", "data-testid": "no-metrics" }, "No metrics yet: they come with a successful run.")];
  const byName = new Map<string, Metric[]>();
  for (const m of list) byName.set(m.name, [...(byName.get(m.name) ?? []), m]);
  return [
    h("h2", {}, "Metrics"),
    ...[...byName].map(([name, figures]) => {
      const unit = figures[0]!.unit;
      const better = figures[0]!.better;
      const bars: Bar[] = figures.map((m, i) => ({
        key: `${name}#${i}`,
        label: [tagsText(m.tags), figures.length > 1 && !tagsText(m.tags) ? m.vm : ""].filter(Boolean).join(" ") || name,
        value: m.value,
      }));
      return h(
        "figure",
        { class: "metric", "data-metric": name },
        h("figcaption", {}, name, h("span", { class: "muted" }, ` ${unit}${better ? `, ${better} is better` : ""}`)),
        barChart(bars, { title: `${name} (${unit})`, kind: "metrics", unit }),
      );
    }),
  ];
}
