import {
  BenchwrightProblemError,
  type Execution,
  type ExecutionTelemetry,
  type Metric,
  type Session,
  type StepName,
  type StepRecord,
  type Vm,
  type Workload,
} from "@benchwright/sdk";
import { codeFactItems } from "../code-measured.js";
import { api, describeError } from "../api.js";
import { chartElement } from "../charts/chart-element.js";
import { metricBarHeight, metricBarOption } from "../charts/metric-bar-option.js";
import { TELEMETRY_HEIGHT, telemetryOption } from "../charts/telemetry-option.js";
import { h } from "../dom.js";
import { bytes, shortDigest, shortId } from "../format.js";
import { onChanges } from "../live.js";
import { executionMetricGroups } from "../metric-bars.js";
import { href } from "../router.js";
import { runWords } from "../run-title.js";
import { isSessionGone } from "../session-record.js";
import { stealAndIowait, stealAndIowaitText, summaryFigure, trackTitle } from "../telemetry-figures.js";
import { executionStateLook, stepStateLook } from "../state-look.js";
import { lookBadge, stateBadge } from "./badges.js";
import { executionActions } from "./execution-actions.js";
import { listTable } from "./list-table.js";

/**
 * One execution: its state, steps, machines' facts and metrics, reloaded on each of its events,
 * and a step's log: followed live while the step runs, else read whole.
 */
export async function executionView(root: HTMLElement, execId: string, signal: AbortSignal): Promise<void> {
  const head = h("div");
  const actions = executionActions();
  const details = h("div");
  const logTabs = h("div", { class: "tabs", "data-testid": "log-steps" });
  const logText = h("pre", { class: "log", "data-testid": "log" });
  const logTitle = h("h2", {}, "Log");
  root.replaceChildren(head, actions.element, details, logTitle, logTabs, logText);

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
        for await (const text of api().logs(execId, {
          step: record.step,
          attempt: record.attempt,
          follow: running,
          signal: aborter.signal,
        })) {
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

  let workload: Workload | undefined;
  let session: Session | undefined;
  let sampled: ExecutionTelemetry | undefined;
  const render = (execution: Execution) => {
    head.replaceChildren(...summary(execution, workload, session));
    actions.update(execution, session);
    details.replaceChildren(
      ...steps(execution),
      ...machines(execution.exec_env.vms),
      ...provenance(execution),
      ...metrics(execution.metrics),
      ...telemetry(sampled),
    );
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

  const load = async () => {
    const execution = await api().getExecution(execId, { signal });
    [session, workload, sampled] = await Promise.all([
      sessionOf(execution.session_id, signal),
      workload ?? workloadOf(execution, signal),
      telemetryOf(execution, signal),
    ]);
    render(execution);
  };
  await load();
  // From the execution's first event (a few per step), not from when the stream happens to open:
  // a step that moved on between the read above and the stream's start (a prepare and run begun
  // just before the page opened) would otherwise go unseen until its next change.
  onChanges({ executionId: execId, types: ["execution.state", "step.started", "step.finished"], lastEventId: 0 }, signal, () => void load().catch(() => {}));
}

/** The session's record; none for a deleted session (410, or 404 on a server that forgets them). */
async function sessionOf(id: string, signal: AbortSignal): Promise<Session | undefined> {
  try {
    return await api().getSession(id, { signal });
  } catch (error) {
    if (isSessionGone(error) || (error instanceof BenchwrightProblemError && error.status === 404)) return undefined;
    throw error;
  }
}

/** What the machines' samplers saw during the last run, once it has ended; none before, or when it took none. */
async function telemetryOf(e: Execution, signal: AbortSignal): Promise<ExecutionTelemetry | undefined> {
  const runs = e.steps.filter((s) => s.step === "run");
  const last = runs[runs.length - 1];
  if (!last || last.state === "running") return undefined;
  try {
    return await api().getTelemetry(e.id, { attempt: last.attempt, signal });
  } catch {
    return undefined;
  }
}

/** The workload's declarations (its parameters' defaults), when the catalogue still has it. */
async function workloadOf(e: Execution, signal: AbortSignal): Promise<Workload | undefined> {
  try {
    return (await api().getBenchmark(e.test.tool_id, { signal })).workloads.find((w) => w.id === e.test.workload_id);
  } catch {
    return undefined;
  }
}

function summary(e: Execution, workload: Workload | undefined, session: Session | undefined): HTMLElement[] {
  const params = Object.entries(e.params ?? {});
  const words = runWords(e, workload);
  const unit = (name: string) => (workload?.params ?? []).find((p) => p.name === name)?.unit;
  const sessionState = session?.state ?? "deleted";
  return [
    h("h1", { "data-testid": "execution-title" }, `${words.title} `, h("code", { title: e.id }, shortId(e.id))),
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, "State"),
      h("dd", {}, lookBadge(e.state, executionStateLook(e), "execution-state")),
      h("dt", {}, "Session"),
      h(
        "dd",
        {},
        h("a", { href: href(["sessions", e.session_id]) }, e.session_id),
        sessionState !== "active" ? [" ", stateBadge(sessionState, "execution-session-state")] : null,
      ),
      h("dt", {}, "Created"),
      h("dd", {}, e.created),
      codeFactItems(e, "execution"),
      h("dt", {}, "Workload"),
      h("dd", { "data-testid": "execution-description" }, words.description),
      h("dt", {}, "Parameters"),
      h(
        "dd",
        { "data-testid": "execution-params" },
        params.length ? params.map(([k, v]) => `${k} = ${String(v)}${unit(k) ? ` ${unit(k)}` : ""}`).join(", ") : "none",
      ),
      h("dt", {}, "Each run measures"),
      h(
        "dd",
        {},
        e.repetitions
          ? "count" in e.repetitions
            ? `${e.repetitions.count} times`
            : `until CV ≤ ${e.repetitions.until_cv}, ${e.repetitions.min} to ${e.repetitions.max} times`
          : "once",
      ),
    ),
  ];
}

function steps(e: Execution): HTMLElement[] {
  if (!e.steps.length) return [];
  return [
    h("h2", {}, "Steps"),
    listTable(
      "steps",
      ["Step", "Attempt", "State", "Started", "Duration (s)", "Exit code", "Error"],
      e.steps.map((s) =>
        h(
          "tr",
          {},
          h("td", {}, s.step),
          h("td", {}, s.attempt),
          h("td", {}, lookBadge(s.state, stepStateLook(s))),
          h("td", {}, s.started ?? ""),
          h("td", {}, s.duration ?? ""),
          h("td", {}, s.exit_code ?? ""),
          h("td", { class: "error" }, s.error ?? ""),
        ),
      ),
    ),
  ];
}

function machines(vms: Vm[]): HTMLElement[] {
  if (!vms.length) return [];
  return [
    h("h2", {}, "Machines"),
    listTable(
      "machines",
      ["Machine", "Address", "Platform", "CPU", "CPUs", "Memory", "Kernel", "OS", "Image"],
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
          // A cloud's image id, type and zone; a host that is not a cloud's, its OS release.
          h("td", {}, [vm.facts?.image, vm.facts?.instance_type, vm.facts?.zone].filter(Boolean).join(" · ")),
        ),
      ),
    ),
  ];
}

/** What produced the metrics (the last successful run's provenance): one row per fact, the digests shortened with the whole in the title. */
function provenance(e: Execution): HTMLElement[] {
  const p = e.provenance;
  if (!p) return [];
  const digest = (d: string) => h("code", { title: d }, shortDigest(d));
  const row = (name: string, ...value: Array<Node | string>) => h("tr", {}, h("th", {}, name), h("td", {}, ...value));
  const packages = p.packages.map((x) => `${x.name} ${x.version} (${x.machine})`).join(", ");
  return [
    h("h2", {}, "Provenance"),
    h(
      "table",
      { class: "list provenance", "data-testid": "provenance" },
      h(
        "tbody",
        {},
        row("Tool", `${p.tool} / ${p.workload}`),
        row("Installed", packages || "nothing recorded"),
        row("Definition", digest(p.definition_digest), ...definitionVersion(p.tool, p.definition_version)),
        ...p.scripts.map((s) => row(`Script on ${s.machine}${s.role ? ` (${s.role})` : ""}`, digest(s.digest))),
        row(
          "Params",
          Object.entries(p.params)
            .map(([k, v]) => `${k}=${v}`)
            .join(" ") || "none",
        ),
        row("Benchwright", p.benchwright_version),
      ),
    ),
  ];
}

/** A team's definition (written through the API) names the version the run ran, linking to its history; a built-in's has none. */
function definitionVersion(tool: string, version: number | undefined): Array<Node | string> {
  if (version == null) return [];
  return [" ", h("a", { href: href(["benchmarks", tool]), "data-testid": "definition-version", "data-version": version }, `version ${version}`)];
}

/** One chart per metric name, one bar per figure (tags, machine); a repeated run's with its confidence interval. */
function metrics(list: Metric[]): Element[] {
  if (!list.length)
    return [h("h2", {}, "Metrics"), h("p", { class: "muted", "data-testid": "no-metrics" }, "No metrics yet: they come with a successful run.")];
  const repeated = list.some((m) => m.stats);
  return [
    h("h2", {}, "Metrics"),
    repeated ? h("p", { class: "muted" }, "Bars are the means of the run's repetitions; error bars their 95% confidence interval.") : null,
    ...executionMetricGroups(list).map(({ name, unit, better, bars, nonNegative }) =>
      h(
        "figure",
        { class: "metric", "data-metric": name },
        h("figcaption", {}, name, h("span", { class: "muted" }, ` ${unit}${better ? `, ${better} is better` : ""}`)),
        chartElement(metricBarOption(bars, { unit, nonNegative }), { kind: "metrics", title: `${name} (${unit})`, height: metricBarHeight(bars.length) }),
      ),
    ),
  ].filter((x): x is HTMLElement => x !== null);
}

/** Under the run's figures: each machine's CPU time by kind and run queue over the last run, with its steal and iowait. */
function telemetry(t: ExecutionTelemetry | undefined): HTMLElement[] {
  const tracks = t?.machines.filter((m) => m.samples.length > 0) ?? [];
  if (!t || !tracks.length) return [];
  const repeated = tracks.some((m) => m.repetition > 1);
  return [
    h("h2", {}, `Machines during run #${t.attempt}`),
    h(
      "p",
      { class: "muted" },
      `Sampled every ${t.interval_ms / 1000} s: CPU time by kind (steal: taken by the hypervisor for other guests) and the run queue against the CPU count.`,
    ),
    ...tracks.map((m) =>
      h(
        "figure",
        { class: "telemetry", "data-machine": m.machine_id },
        h(
          "figcaption",
          {},
          trackTitle(m, repeated),
          " ",
          h(
            "span",
            { class: "muted", "data-testid": "telemetry-summary" },
            `${stealAndIowaitText(stealAndIowait({ machines: [m] }))}, run queue max ${summaryFigure(m, "run_queue_max") ?? "?"} (${m.cpus} CPUs)`,
          ),
        ),
        chartElement(telemetryOption(m), { kind: "telemetry", title: `Telemetry of ${m.machine_id}`, height: TELEMETRY_HEIGHT }),
      ),
    ),
  ];
}
