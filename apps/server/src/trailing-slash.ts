import type { RequestHandler } from "express";

/**
 * The seed writes collections with a trailing slash and items without, and clients use both:
 * a request whose path matches no operation but would with the slash toggled is rewritten
 * to the contract's spelling before validation and routing.
 */
export function normalizeTrailingSlash(basePath: string, templates: string[]): RequestHandler {
  const patterns = templates.map(
    (t) => new RegExp("^" + escape(basePath) + t.split(/\{[^}]+\}/).map(escape).join("[^/]+") + "$"),
  );
  const known = (path: string) => patterns.some((p) => p.test(path));
  return (req, _res, next) => {
    const q = req.url.indexOf("?");
    const path = q < 0 ? req.url : req.url.slice(0, q);
    if (path.startsWith(basePath + "/") && !known(path)) {
      const toggled = path.endsWith("/") ? path.slice(0, -1) : path + "/";
      if (known(toggled)) {
        // The validator matches on originalUrl, the router on url: both get the contract's spelling.
        req.url = toggled + (q < 0 ? "" : req.url.slice(q));
        req.originalUrl = req.url;
      }
    }
    next();
  };
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
