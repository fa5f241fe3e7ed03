import type { RequestHandler } from "express";
import { settingList } from "../setting-list.js";

/**
 * Cross-origin access for the pages of the origins listed in BENCHWRIGHT_CORS_ORIGINS (none by
 * default; `*` for any). A page built against the Prism mock (`npm run mock`) must work against
 * the server unchanged, so a listed origin gets the headers Prism sends: the origin echoed, the
 * asked headers (or `*`) allowed, credentials allowed, every header exposed; on a preflight, the
 * asked method allowed and a 204 at once. `*` lets any other origin read answers, but not with
 * the user's credentials (a page anywhere would otherwise act with the cookies and the
 * Authorization its browser holds): it gets `Access-Control-Allow-Origin: *` and no
 * `Allow-Credentials`. The opaque origin `null` (sandboxed frames, file:// pages, some
 * redirects) is any page that asks for it, so `*` does not cover it: only `null` listed does.
 * It runs before the token check and the validator: a preflight carries no token and is no
 * operation of the contract. An origin not allowed gets no CORS header at all, and its
 * preflight goes on to the 404 of a path without OPTIONS.
 */
export function cors(origins: readonly string[], exposedHeaders: readonly string[]): RequestHandler {
  const listed = new Set(origins.map(normalizeOrigin));
  const any = listed.delete("*");
  // `*` exposes every header to a request without credentials; a credentialed one reads the
  // list literally, hence the contract's response headers named beside it.
  const expose = ["*", ...exposedHeaders].join(", ");
  return (req, res, next) => {
    if (listed.size === 0 && !any) return next();
    res.vary("Origin");
    const origin = req.get("origin");
    if (!origin) return next();
    const normalized = normalizeOrigin(origin);
    const isListed = listed.has(normalized);
    if (!isListed && (!any || normalized === "null")) return next();
    res.set("Access-Control-Allow-Origin", isListed ? origin : "*");
    res.set("Access-Control-Allow-Headers", req.get("access-control-request-headers") || "*");
    if (isListed) res.set("Access-Control-Allow-Credentials", "true");
    res.set("Access-Control-Expose-Headers", expose);
    const method = req.get("access-control-request-method");
    if (req.method === "OPTIONS" && method) {
      res.set("Access-Control-Allow-Methods", method);
      res.status(204).set("Content-Length", "0").end();
      return;
    }
    next();
  };
}

/** Origins compare as the browser sends them: scheme and host in lower case, no trailing slash. */
export function normalizeOrigin(origin: string): string {
  return origin.trim().replace(/\/+$/, "").toLowerCase();
}

/**
 * `BENCHWRIGHT_CORS_ORIGINS`: a comma-separated list of origins such as `http://localhost:3000`,
 * `*` for any (without credentials), and `null` for the opaque origin, which only its own
 * entry allows.
 */
export function parseCorsOrigins(value: string | undefined): string[] {
  const origins = settingList(value);
  for (const origin of origins) {
    if (origin !== "*" && origin.toLowerCase() !== "null" && !/^https?:\/\/[^/\s]+\/?$/i.test(origin)) {
      throw new Error(`BENCHWRIGHT_CORS_ORIGINS: '${origin}' is not an origin (scheme://host[:port], null, or *)`);
    }
  }
  return origins;
}

/** Every response header the contract names, so that a page may read them (Location, Content-Range...). */
export function contractResponseHeaders(spec: { paths?: object; components?: { responses?: object } }): string[] {
  const names = new Set<string>();
  const visit = (responses: unknown) => {
    for (const response of Object.values((responses ?? {}) as Record<string, { headers?: object }>)) {
      for (const name of Object.keys(response?.headers ?? {})) names.add(name);
    }
  };
  visit(spec.components?.responses);
  for (const item of Object.values((spec.paths ?? {}) as Record<string, Record<string, { responses?: unknown }>>)) {
    for (const op of Object.values(item)) visit(op?.responses);
  }
  return [...names].sort();
}
