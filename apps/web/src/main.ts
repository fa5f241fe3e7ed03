import "./style.css";
import { apiBase, describeError, isUnauthorized, setToken } from "./api.js";
import { caller, signedInText } from "./caller.js";
import { h } from "./dom.js";
import { parseRoute } from "./router.js";
import { benchmarkView } from "./views/benchmark.js";
import { benchmarksView } from "./views/benchmarks.js";
import { compareView } from "./views/compare.js";
import { executionView } from "./views/execution.js";
import { executionsView } from "./views/executions.js";
import { planView } from "./views/plan.js";
import { planRunView } from "./views/plan-run.js";
import { plansView } from "./views/plans.js";
import { providersView } from "./views/providers.js";
import { regressionsView } from "./views/regressions.js";
import { seriesView } from "./views/series.js";
import { seriesListView } from "./views/series-list.js";
import { sessionView } from "./views/session.js";
import { sessionsView } from "./views/sessions.js";

const root = document.getElementById("view")!;
document.getElementById("api-base")!.textContent = apiBase();
let current: AbortController | undefined;

/** Renders the route of the hash; the previous view's calls and live streams are aborted. */
async function show(): Promise<void> {
  current?.abort();
  const aborter = new AbortController();
  current = aborter;
  const { signal } = aborter;
  const route = parseRoute(location.hash);
  const [page = "sessions", id, sub, subId] = route.path;
  // `#/plans/<id>/runs/<run>` is a run's page; every other page is `<page>` or `<page>/<id>`.
  const runPage = page === "plans" && id && sub === "runs" && subId;
  root.dataset.view = "loading";
  root.className = ""; // a view's marks (a deleted session's grey) are its own
  root.replaceChildren(h("p", { class: "muted" }, "Loading…"));
  showCaller();
  try {
    if (page === "sessions" && id) await sessionView(root, id, signal);
    else if (page === "executions" && id) await executionView(root, id, signal);
    else if (page === "executions") await executionsView(root, signal);
    else if (page === "compare") await compareView(root, route, signal);
    else if (runPage) await planRunView(root, id, subId, signal);
    else if (page === "plans" && id) await planView(root, id, signal);
    else if (page === "plans") await plansView(root, signal);
    else if (page === "series" && id) await seriesView(root, id, signal, route.query.get("branch") || undefined);
    else if (page === "series") await seriesListView(root, route, signal);
    else if (page === "regressions") await regressionsView(root, signal);
    else if (page === "benchmarks" && id) await benchmarkView(root, id, signal);
    else if (page === "benchmarks") await benchmarksView(root, signal);
    else if (page === "providers") await providersView(root, signal);
    else await sessionsView(root, route, signal);
    if (!signal.aborted) root.dataset.view = runPage ? "plan-run" : id ? `${page}-one` : page;
  } catch (error) {
    if (signal.aborted) return;
    root.dataset.view = "error";
    root.replaceChildren(isUnauthorized(error) ? tokenForm() : h("p", { class: "problem", role: "alert" }, describeError(error)));
  }
}

/** Who is signed in, with which role, in the header; nothing until the token is known. */
function showCaller(): void {
  const where = document.getElementById("signed-in")!;
  caller().then(
    (who) => {
      where.textContent = who ? `Signed in: ${signedInText(who)} ·` : "";
      where.dataset.role = who?.role ?? "";
    },
    () => {
      where.textContent = "";
      where.dataset.role = "";
    },
  );
}

/** The API wants a token (BENCHWRIGHT_API_TOKEN): ask for it, keep it for this tab, try again. */
function tokenForm(): HTMLElement {
  const input = h("input", { type: "password", name: "token", autocomplete: "off", "aria-label": "API token", required: true });
  return h(
    "form",
    {
      class: "token",
      "data-testid": "token-form",
      onsubmit: (event: Event) => {
        event.preventDefault();
        setToken(input.value.trim());
        void show();
      },
    },
    h("p", {}, "The server asks for its API token."),
    input,
    h("button", { type: "submit" }, "Use token"),
  );
}

window.addEventListener("hashchange", () => void show());
void show();
