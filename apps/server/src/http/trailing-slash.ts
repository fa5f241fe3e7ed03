import type { RequestHandler } from "express";

/**
 * The contract's template (`/sessions/{session_id}`) a raw path (as in `req.url`, before
 * decoding) spells exactly: same case, same trailing slash, one segment per parameter; or
 * undefined. Routing and validation both rely on it, so they see the same paths.
 */
export function operationPathMatcher(basePath: string, templates: string[]): (path: string) => string | undefined {
  const patterns = templates.map(
    (t) =>
      [
        t,
        new RegExp(
          "^" +
            escapeRegExp(basePath) +
            t
              .split(/\{[^}]+\}/)
              .map(escapeRegExp)
              .join("[^/]+") +
            "$",
        ),
      ] as const,
  );
  return (path) => patterns.find(([, p]) => p.test(path))?.[0];
}

/**
 * The seed writes collections with a trailing slash and items without, and clients use both:
 * a request whose path matches no operation but would with the slash toggled is rewritten
 * to the contract's spelling before validation and routing.
 */
export function normalizeTrailingSlash(basePath: string, templateOf: (path: string) => string | undefined): RequestHandler {
  return (req, _res, next) => {
    const path = pathOf(req.url);
    // Only one slash is toggled: `//` at the end is not a spelling of any operation.
    if (path.startsWith(basePath + "/") && !path.endsWith("//") && !templateOf(path)) {
      const toggled = path.endsWith("/") ? path.slice(0, -1) : path + "/";
      if (templateOf(toggled)) {
        // The validator matches on originalUrl, the router on url: both get the contract's spelling.
        req.url = toggled + req.url.slice(path.length);
        req.originalUrl = req.url;
      }
    }
    next();
  };
}

export function pathOf(url: string): string {
  const q = url.indexOf("?");
  return q < 0 ? url : url.slice(0, q);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
