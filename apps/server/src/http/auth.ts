import { createHash, timingSafeEqual } from "node:crypto";
import type { RequestHandler } from "express";
import { BenchwrightError, type Tokens } from "@benchwright/engine";
import { isDocsPath } from "../operations/docs.js";
import type { Principal } from "./principal.js";

/** With a token configured, every operation but the docs needs `Authorization: Bearer <token>`. */
export function requireBearerToken(token: string): RequestHandler {
  const expected = digest(token);
  return (req, _res, next) => {
    if (isDocsPath(req.path)) return next();
    const match = /^Bearer\s+(.+)$/i.exec(req.get("authorization") ?? "");
    if (match && timingSafeEqual(digest(match[1].trim()), expected)) return next();
    next(new BenchwrightError("unauthorized", "Send Authorization: Bearer <token> with the server's API token"));
  };
}

/**
 * Sets the request's principal (res.locals.principal, read by principalOf): the bootstrap admin
 * for BENCHWRIGHT_API_TOKEN, otherwise the principal of a token made through the admin API,
 * looked up in the database on each request so that a revocation holds on every server at once.
 * An unknown, expired or revoked token is a 401; the header is the only place a token is read
 * (never a cookie: a page of another site cannot send one).
 */
export function authenticate(bootstrapToken: string, tokens: Tokens): RequestHandler {
  const expected = digest(bootstrapToken);
  return (req, res, next) => {
    if (isDocsPath(req.path)) return next();
    // Until a token admits it, a request is nobody's (principalOf's default, the bootstrap admin,
    // is for servers without tokens): the audit log records a refused one as anonymous.
    res.locals.principal = ANONYMOUS;
    const match = /^Bearer\s+(.+)$/i.exec(req.get("authorization") ?? "");
    if (!match) return next(new BenchwrightError("unauthorized", "Send Authorization: Bearer <token> with an API token"));
    const token = match[1].trim();
    if (timingSafeEqual(digest(token), expected)) {
      res.locals.principal = { id: "bootstrap", role: "admin" } satisfies Principal;
      return next();
    }
    tokens.principalOf(token).then((found) => {
      if (typeof found === "string") {
        const why = found === "unknown" ? "is not one of this server's" : `was ${found}`;
        return next(new BenchwrightError("unauthorized", `The bearer token ${why}; send a valid API token`));
      }
      res.locals.principal = found satisfies Principal;
      next();
    }, next);
  };
}

const ANONYMOUS: Principal = { id: "anonymous", role: "viewer" };

function digest(s: string): Buffer {
  return createHash("sha256").update(s).digest();
}
