import { Router, type Response } from "express";
import type { Engine, MetricsExportQuery } from "@benchwright/engine";
import { streamEvents } from "./event-stream.js";
import { listQueryOf, sendPage } from "./list-response.js";
import { sendLog } from "./log-response.js";
import { sendMetricsExport, type ExportFormat } from "./metrics-export.js";

/** One line per operation: HTTP in, one engine call, HTTP out. */
export function apiRouter(engine: Engine): Router {
  const r = Router();
  const ok = (res: Response, status: number, body: unknown) => res.status(status).json(body);

  r.get("/benchmarks/", (_req, res) => ok(res, 200, engine.listBenchmarks()));
  r.get("/benchmarks/:benchmark_id", (req, res) => ok(res, 200, engine.getBenchmark(req.params.benchmark_id)));
  r.get("/providers/", (_req, res) => ok(res, 200, engine.listProviders()));

  // 200 on creation, as the Benchmarking Suite answered: its clients check for exactly 200.
  r.post("/sessions/", async (req, res) => ok(res, 200, await engine.createSession(req.body)));
  r.get("/sessions/", async (req, res) => sendPage(req, res, await engine.listSessions(listQueryOf(req))));
  r.get("/sessions/:session_id", async (req, res) => ok(res, 200, await engine.getSession(req.params.session_id)));
  r.delete("/sessions/:session_id", async (req, res) => {
    await engine.deleteSession(req.params.session_id);
    res.status(204).end();
  });
  r.post("/sessions/:session_id/executions/", async (req, res) =>
    ok(res, 200, await engine.createExecution(req.params.session_id, req.body)),
  );
  r.get("/sessions/:session_id/executions/", async (req, res) =>
    sendPage(req, res, await engine.listExecutions(req.params.session_id, listQueryOf(req))),
  );

  r.get("/executions/", async (req, res) => sendPage(req, res, await engine.listExecutions(undefined, listQueryOf(req))));
  // Before /executions/:exec_id, which would take `metrics` for an id.
  r.get("/executions/metrics", async (req, res) => {
    const { format = "csv", ...filters } = listQueryOf<MetricsExportQuery & { format?: ExportFormat }>(req);
    await sendMetricsExport(res, engine.exportMetrics(filters), format);
  });
  r.get("/executions/compare", async (req, res) => {
    const q = req.query as { ids: string | string[]; baseline?: string; confidence?: string | number };
    const ids = Array.isArray(q.ids) ? q.ids : q.ids.split(",");
    ok(res, 200, await engine.compareExecutions({ ids, baseline: q.baseline, confidence: q.confidence === undefined ? undefined : Number(q.confidence) }));
  });
  r.get("/executions/:exec_id", async (req, res) => ok(res, 200, await engine.getExecution(req.params.exec_id)));
  // Prefer: respond-async (RFC 7240) answers 202 at once; without it the seed's synchronous answer.
  for (const kind of ["prepare", "run"] as const) {
    r.post(`/executions/:exec_id/${kind}`, async (req, res) => {
      const attempt = await engine.startStep(kind, req.params.exec_id);
      if (!prefersAsync(req.get("prefer"))) return ok(res, 200, await engine.waitForStep(attempt));
      res.set("Location", `${req.baseUrl}/executions/${attempt.execution_id}/steps/${attempt.step}/${attempt.attempt}`);
      res.set("Preference-Applied", "respond-async");
      ok(res, 202, attempt);
    });
  }
  r.get("/executions/:exec_id/steps/:step/:attempt", async (req, res) =>
    ok(res, 200, await engine.getStep(req.params.exec_id, req.params.step as "prepare" | "run", Number(req.params.attempt))),
  );
  r.get("/executions/:exec_id/logs", async (req, res) => {
    const { step, attempt, follow } = req.query as { step?: "prepare" | "run"; attempt?: string; follow?: string | boolean };
    const log = await engine.openLog(req.params.exec_id, { step, attempt: attempt ? Number(attempt) : undefined });
    await sendLog(req, res, log, String(follow) === "true");
  });

  r.get("/events", (req, res) => streamEvents(engine.store.events, req, res));

  r.post("/admin/sweep", async (req, res) => ok(res, 200, await engine.sweep(req.body ?? {})));
  return r;
}

/** Whether a Prefer header asks for `respond-async`, among other preferences or not. */
export function prefersAsync(prefer: string | undefined): boolean {
  return !!prefer && prefer.split(",").some((p) => p.split(";")[0].trim().toLowerCase() === "respond-async");
}
