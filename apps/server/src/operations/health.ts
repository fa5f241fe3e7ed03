import { Router } from "express";
import type { Engine } from "@benchwright/engine";

/**
 * Liveness and readiness for orchestrators, outside the API (no token, no contract):
 * `/healthz` answers while the process serves; `/readyz` only when its database answers,
 * its schema is migrated (the engine opens only then) and its step queue delivers.
 */
export function healthRouter(engine: Engine): Router {
  const r = Router();
  r.get("/healthz", (_req, res) => {
    res.status(200).json({ status: "ok" });
  });
  r.get("/readyz", async (_req, res) => {
    const state = await engine.ready();
    res.status(state.ready ? 200 : 503).json({ status: state.ready ? "ready" : "not ready", ...state });
  });
  return r;
}
