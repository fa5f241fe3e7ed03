import type { Request, RequestHandler, Response } from "express";
import { BenchwrightError, type Engine, type Ownership, type Visibility } from "@benchwright/engine";
import { principalOf, type Principal, type Role } from "../principals/principal.js";
import { hasRole } from "../principals/roles.js";

/** The role an operation needs, by operationId (see requiredRoles): a lower one is a 403 before the request is read further. */
export function requireRole(roles: ReadonlyMap<string, Role>, operationIdOf: (req: Request) => string | undefined): RequestHandler {
  return (req, res, next) => {
    const operationId = operationIdOf(req);
    const needed = operationId === undefined ? undefined : roles.get(operationId);
    const { role } = principalOf(res);
    if (needed === undefined || hasRole(role, needed)) return next();
    next(new BenchwrightError("forbidden", `${operationId} needs the ${needed} role; this token's is ${role}`));
  };
}

/**
 * Another principal's session or execution: an admin acts on any; another principal reads it when
 * it is shared, and changes only its own. What does not exist passes, for the engine's 404.
 * Checked before the operation runs, so a refusal changes nothing.
 */
export function ownResourcesOnly(engine: Engine): RequestHandler {
  return (req, res, next) => {
    const principal = principalOf(res);
    if (principal.role === "admin") return next();
    // The path parameters the validator matched (see OpenApiRequest in routes.ts).
    const params = ((req as { openapi?: { pathParams?: Record<string, string> } }).openapi?.pathParams ?? {}) as Record<string, string>;
    const reading = req.method === "GET" || req.method === "HEAD";
    const check =
      params.exec_id !== undefined
        ? engine.ownerOfExecution(params.exec_id)
        : params.session_id !== undefined
          ? engine.ownerOfSession(params.session_id)
          : undefined;
    if (!check) return next();
    check.then((found) => {
      if (!found || (reading ? mayRead(principal, found) : found.owner === principal.id)) return next();
      const what = params.exec_id !== undefined ? `execution ${params.exec_id}` : `session ${params.session_id}`;
      next(new BenchwrightError("forbidden", `The ${what} is another principal's${reading ? "" : " (or only shared for reading)"}`));
    }, next);
  };
}

/** What a list shows this principal: everything to an admin, its own and the shared records to others. */
export function visibilityOf(res: Response): Visibility {
  const principal = principalOf(res);
  return principal.role === "admin" ? {} : { visible_to: principal.id };
}

/** Executions named in a request (a comparison's) that this principal may not read: a 403 before anything is read. */
export async function checkReadable(engine: Engine, principal: Principal, executionIds: string[]): Promise<void> {
  if (principal.role === "admin") return;
  for (const id of executionIds) {
    const found = await engine.ownerOfExecution(id);
    if (found && !mayRead(principal, found)) throw new BenchwrightError("forbidden", `The execution ${id} is another principal's`);
  }
}

/** A session's creation names a stored configuration (Form A) or sends one (Form B, `inline`): the role that one needs. */
export function checkProviderRole(principal: Principal, body: unknown, providerRoles: Readonly<Record<string, Role>>): void {
  const b = (body ?? {}) as { provider?: unknown; config?: unknown };
  const name = b.config !== undefined ? "inline" : typeof b.provider === "string" ? b.provider : undefined;
  if (name === undefined) return;
  const needed = Object.hasOwn(providerRoles, name) ? providerRoles[name] : "operator";
  if (!hasRole(principal.role, needed)) {
    const what = name === "inline" ? "A configuration sent with the request" : `The provider configuration '${name}'`;
    throw new BenchwrightError("forbidden", `${what} needs the ${needed} role; this token's is ${principal.role}`);
  }
}

/**
 * Which executions' events told without their session (`change.detected`) this principal's stream
 * shows: an admin's, all (undefined); another's, its own executions' and those of shared sessions.
 */
export function executionsVisibleTo(engine: Engine, res: Response): ((executionId: string) => Promise<boolean>) | undefined {
  const principal = principalOf(res);
  if (principal.role === "admin") return undefined;
  return async (executionId) => {
    const found = await engine.ownerOfExecution(executionId);
    return found !== undefined && mayRead(principal, found);
  };
}

/**
 * Which sessions' events this principal's stream shows: an admin's, all (undefined); another's,
 * its own and the shared ones. A session seen once stays seen for the stream; one not seen is
 * asked again at its next event, since its owner may share it meanwhile.
 */
export function sessionsVisibleTo(engine: Engine, res: Response): ((sessionId: string) => Promise<boolean>) | undefined {
  const principal = principalOf(res);
  if (principal.role === "admin") return undefined;
  const seen = new Set<string>();
  return async (sessionId) => {
    if (seen.has(sessionId)) return true;
    const found = await engine.ownerOfSession(sessionId);
    const visible = found !== undefined && mayRead(principal, found);
    if (visible) seen.add(sessionId);
    return visible;
  };
}

/** Whether a principal who is not an admin may read a session or execution: its own, or shared (the lists' `visible_to` says the same in SQL). */
function mayRead(principal: Principal, found: Ownership): boolean {
  return found.owner === principal.id || found.shared;
}
