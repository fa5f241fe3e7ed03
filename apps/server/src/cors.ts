import type { RequestHandler } from "express";

/**
 * Cross-origin access for the pages of the origins listed in BENCHWRIGHT_CORS_ORIGINS (none by
 * default; `*` for any). A page built against the Prism mock (`npm run mock`) must work against
 * the server unchanged, so the headers are the ones Prism sends: the origin echoed, the asked
 * headers (or `*`) allowed, credentials allowed, every header exposed; on a preflight, the asked
 * method allowed and a 204 at once. It runs before the token check and the validator: a
 * preflight carries no token and is no operation of the contract. An origin not listed gets no
 * CORS header at all, and its preflight goes on to the 404 of a path without OPTIONS.
 */
export function cors(origins: readonly string[], exposedHeaders: readonly string[]): RequestHandler {
  const allowed = new Set(origins.map(normalizeOrigin));
  const any = allowed.has("*");
  // `*` exposes every header to a request without credentials; a credentialed one reads the
  // list literally, hence the contract's response headers named beside it.
  const expose = ["*", ...exposedHeaders].join(", ");
  return (req, res, next) => {
    if (allowed.size === 0) return next();
    res.vary("Origin");
    const origin = req.get("origin");
    if (!origin || !(any || allowed.has(normalizeOrigin(origin)))) return next();
    res.set("Access-Control-Allow-Origin", origin);
    res.set("Access-Control-Allow-Headers", req.get("access-control-request-headers") || "*");
    res.set("Access-Control-Allow-Credentials", "true");
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
function normalizeOrigin(origin: string): string {
  return origin.trim().replace(/\/+$/, "").toLowerCase();
}

/** `BENCHWRIGHT_CORS_ORIGINS`: a comma-separated list of origins such as `http://localhost:3000`. */
export function parseCorsOrigins(value: string | undefined): string[] {
  const origins = (value ?? "").split(",").map((o) => o.trim()).filter(Boolean);
  for (const origin of origins) {
    if (origin !== "*" && !/^https?:\/\/[^/\s]+\/?$/i.test(origin)) {
      throw new Error(`BENCHWRIGHT_CORS_ORIGINS: '${origin}' is not an origin (scheme://host[:port], or *)`);
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
