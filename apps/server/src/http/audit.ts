import type { Request, RequestHandler } from "express";
import type { Engine } from "@benchwright/engine";
import type { Logger } from "../operations/logger.js";
import { principalOf } from "../principals/principal.js";
import { pathOf } from "./trailing-slash.js";

/** The methods that may change state: every request with one is recorded, whatever its answer. */
const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Nginx's "client closed request": the caller went away before an answer was sent, so no
 * status was; the audit entry still says the request came, and that it got nothing.
 */
const CLOSED_UNANSWERED = 499;

/**
 * Records each state-changing request once in the audit log, when its answer has gone (or the
 * caller has gone): who sent it, which operation, the path with its ids, the status and problem
 * code, and its request id. Never a body, a query or a header: the path alone can hold nothing
 * secret (ids and names), where a query or body could. Runs after the request id is set and
 * reads the principal when the answer ends, after authentication has set it.
 */
export function auditWrites(engine: Engine, operationIdOf: (req: Request) => string | null, log: Logger): RequestHandler {
  return (req, res, next) => {
    if (!WRITES.has(req.method)) return next();
    // As it came: the trailing slash is settled (the URL rewritten) further on.
    const path = pathOf(req.originalUrl);
    let recorded = false;
    const record = () => {
      if (recorded) return;
      recorded = true;
      const status = res.writableFinished || res.headersSent ? res.statusCode : CLOSED_UNANSWERED;
      const entry = {
        principal: principalOf(res).id,
        operation: operationIdOf(req),
        method: req.method,
        path,
        status,
        code: status >= 400 ? ((res.locals.problemCode as string | undefined) ?? null) : null,
        requestId: String(req.id),
      };
      // The answer has gone: a failed write can only be logged (without the entry's path, which the request's own line has).
      engine.recordAudit(entry).catch((e: unknown) => (req.log ?? log).error({ error: (e as Error).message ?? String(e) }, "audit entry not written"));
    };
    res.once("finish", record);
    res.once("close", record);
    next();
  };
}
