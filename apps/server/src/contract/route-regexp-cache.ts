import { createRequire } from "node:module";

type PathToRegexp = (path: unknown, options?: Record<string, unknown>) => { regexp: RegExp; keys: Array<{ name: string }> };

/**
 * express-openapi-validator (5.6.x) compiles every route of the contract with path-to-regexp
 * on every request to find the operation (openapi.metadata.js, lookupRoute; upstream PR #1217
 * caches it): on `GET /executions/{id}` that is most of the request's cost. The compiled
 * route depends only on its arguments and is never changed by its callers (a regexp without
 * the `g` flag keeps no state), so the validator's own copy of path-to-regexp answers from a
 * cache. Routes are the contract's, so the cache holds a few dozen entries at most.
 *
 * @returns whether the cache is in place (false when the validator no longer calls it this way)
 */
export function cacheValidatorRouteRegexps(): boolean {
  const fromValidator = createRequire(createRequire(import.meta.url).resolve("express-openapi-validator"));
  const module = fromValidator("path-to-regexp") as { pathToRegexp?: PathToRegexp & { cached?: true } };
  const compile = module.pathToRegexp;
  if (typeof compile !== "function") return false;
  if (compile.cached) return true;
  // Flags (in the order given) to path to compiled route: no string built from the path.
  const cache = new Map<string, Map<string, ReturnType<PathToRegexp>>>();
  const cached: PathToRegexp & { cached?: true } = (path, options) => {
    if (typeof path !== "string") return compile(path, options);
    // Only what a key can say exactly: flags, not a function option.
    let flags = "";
    for (const name in options) {
      const value = options[name];
      if (value === undefined) continue;
      if (typeof value !== "boolean") return compile(path, options);
      flags += value ? `${name},` : `!${name},`;
    }
    let routes = cache.get(flags);
    if (!routes) cache.set(flags, (routes = new Map()));
    let hit = routes.get(path);
    if (!hit) routes.set(path, (hit = compile(path, options)));
    return hit;
  };
  cached.cached = true;
  module.pathToRegexp = cached;
  return true;
}
