import { createHash, timingSafeEqual } from "node:crypto";
import type { Request, RequestHandler } from "express";
import { ANONYMOUS_PRINCIPAL, BOOTSTRAP_PRINCIPAL, BenchwrightError, type Engine } from "@benchwright/engine";
import { isDocsPath } from "../operations/docs.js";
import type { FailedAuthLimit } from "./failed-auth-limit.js";
import type { Principal } from "../principals/principal.js";

/** Where a request's token is looked up: the engine. */
type Tokens = Pick<Engine, "principalOfToken">;

/**
 * Sets the request's principal (res.locals.principal, read by principalOf): the bootstrap admin
 * for BENCHWRIGHT_API_TOKEN, otherwise the principal of a token made through the admin API,
 * looked up in the database on each request so that a revocation holds on every server at once.
 * An unknown, expired or revoked token is a 401; the header is the only place a token is read
 * (never a cookie: a page of another site cannot send one).
 */
export function authenticate(bootstrapToken: string, tokens: Tokens, limit: FailedAuthLimit): RequestHandler {
  const principalOfRequest = bearerPrincipal(bootstrapToken, tokens, limit);
  return (req, res, next) => {
    if (isDocsPath(req.path)) return next();
    // Until a token admits it, a request is nobody's (principalOf's default, the bootstrap admin,
    // is for servers without tokens): the audit log records a refused one as anonymous.
    res.locals.principal = ANONYMOUS;
    principalOfRequest(req).then((principal) => {
      res.locals.principal = principal;
      next();
    }, next);
  };
}

/**
 * `GET /metrics` (outside the API, so before `authenticate`): an admin's token, the bootstrap
 * one or one made through the admin API, checked as `authenticate` checks it (401 for no,
 * unknown, expired or revoked token); a valid token of a lower role is a 403.
 */
export function requireAdminToken(bootstrapToken: string, tokens: Tokens, limit: FailedAuthLimit): RequestHandler {
  const principalOfRequest = bearerPrincipal(bootstrapToken, tokens, limit);
  return (req, _res, next) => {
    principalOfRequest(req).then((principal) => {
      if (principal.role === "admin") return next();
      next(new BenchwrightError("forbidden", `${req.path} needs the admin role; this token's is ${principal.role}`));
    }, next);
  };
}

/**
 * The one reading of `Authorization: Bearer <token>`: the bootstrap admin when it is
 * BENCHWRIGHT_API_TOKEN (compared by digest, in constant time), else the principal of a stored
 * token; rejects with a 401 `unauthorized` otherwise. Past the bootstrap token, a request takes a
 * place in its address's limit on refusals before its token is looked up (a 429 `rate_limited`
 * when none is left), and gives it back once admitted.
 */
function bearerPrincipal(bootstrapToken: string, tokens: Tokens, limit: FailedAuthLimit): (req: Request) => Promise<Principal> {
  const expected = digest(bootstrapToken);
  return async (req) => {
    const match = /^Bearer\s+(.+)$/i.exec(req.get("authorization") ?? "");
    const token = match?.[1].trim();
    const tokenDigest = token === undefined ? undefined : digest(token);
    if (tokenDigest && timingSafeEqual(tokenDigest, expected)) return BOOTSTRAP;
    const known = tokenDigest?.toString("hex");
    const giveBack = limit.take(req.ip ?? req.socket.remoteAddress ?? "unknown", known);
    if (token === undefined || known === undefined) throw new BenchwrightError("unauthorized", "Send Authorization: Bearer <token> with an API token");
    let found: Awaited<ReturnType<Tokens["principalOfToken"]>>;
    try {
      found = await tokens.principalOfToken(token);
    } catch (e) {
      giveBack(); // the database's failure, not the client's
      throw e;
    }
    if (typeof found === "string") {
      limit.refused(known);
      const why = found === "unknown" ? "is not one of this server's" : `was ${found}`;
      throw new BenchwrightError("unauthorized", `The bearer token ${why}; send a valid API token`);
    }
    giveBack();
    limit.admitted(known);
    return found satisfies Principal;
  };
}

const ANONYMOUS: Principal = { id: ANONYMOUS_PRINCIPAL, role: "viewer" };
const BOOTSTRAP: Principal = { id: BOOTSTRAP_PRINCIPAL, role: "admin" };

function digest(s: string): Buffer {
  return createHash("sha256").update(s).digest();
}
