import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import express, { type Router } from "express";
import { BenchwrightError } from "@benchwright/engine";

/**
 * The dashboard's build: in the published package, its `ui/` folder (copied there by prepack, so
 * that an installed server needs no other package); in the repository, apps/web's build beside
 * this package (from src/ and from dist/ alike).
 */
const PACKAGED_WEB_UI_DIR = fileURLToPath(new URL("../../ui", import.meta.url));
const DEFAULT_WEB_UI_DIR = existsSync(PACKAGED_WEB_UI_DIR) ? PACKAGED_WEB_UI_DIR : fileURLToPath(new URL("../../../web/dist", import.meta.url));

/**
 * The web dashboard (apps/web's build) at /ui/. Its files are public, like the docs: the data
 * it shows comes from /api/v1, which keeps its token (the page asks for it on a 401). Outside
 * the contract, so mounted before the operation gate and the validator. A server whose
 * dashboard is not built still starts; /ui/ then answers a 404 that says how to build it,
 * until the build appears.
 */
export function webUiRouter(dir: string = DEFAULT_WEB_UI_DIR, apiOrigins: readonly string[] = []): Router {
  const router = express.Router({ strict: true, caseSensitive: true });
  const headers = webUiHeaders(apiOrigins);
  // Looked for until found: `npm start` builds the dashboard once the server listens.
  let built = false;
  const isBuilt = () => (built ||= existsSync(join(dir, "index.html")));
  // Nothing else lives at the root: a person who opens the server's address meets the dashboard.
  router.get("/", (_req, res) => res.redirect(302, "/ui/"));
  // The page's assets are relative (./assets/...): it must be read as the folder /ui/, not /ui.
  router.get("/ui", (req, res) => {
    const query = req.originalUrl.indexOf("?");
    res.redirect(301, `/ui/${query < 0 ? "" : req.originalUrl.slice(query)}`);
  });
  const files = express.static(dir, {
    index: "index.html",
    redirect: false,
    fallthrough: true,
    setHeaders(res, path) {
      // Vite names assets by their content hash; the page itself must be asked for again.
      res.setHeader("Cache-Control", /[\\/]assets[\\/]/.test(path) ? "public, max-age=31536000, immutable" : "no-cache");
    },
  });
  router.use("/ui/", (req, res, next) => {
    res.set(headers);
    return isBuilt()
      ? files(req, res, next)
      : next(
          new BenchwrightError(
            "not_found",
            "The web dashboard is not built (yet: npm start builds it once the server listens): npm run build -w @benchwright/web (or npm run build)",
          ),
        );
  });
  return router;
}

/**
 * The page's own policy: its scripts, styles and calls are its origin's (and the API origins the
 * operator names, BENCHWRIGHT_UI_API_ORIGINS, for a dashboard opened with `?api=`), so neither an
 * injected script nor a `?api=` link sends data anywhere else; no site frames it. Styles may be
 * inline: the charts set theirs on the elements they draw.
 */
function webUiHeaders(apiOrigins: readonly string[]): Record<string, string> {
  const policy = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    `connect-src ${["'self'", ...apiOrigins].join(" ")}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  return {
    "Content-Security-Policy": policy,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
  };
}

export function isWebUiPath(path: string): boolean {
  return path === "/" || path === "/ui" || path.startsWith("/ui/");
}
