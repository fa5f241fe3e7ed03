import { createRequire } from "node:module";
import { dirname } from "node:path";
import express, { type Router } from "express";

const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Benchwright API v1</title>
  <link rel="stylesheet" href="docs/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="docs/swagger-ui-bundle.js"></script>
  <script src="docs/init.js"></script>
</body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({ url: "openapi.json", dom_id: "#swagger-ui", deepLinking: true });\n`;

/** The interactive API description, served from the local swagger-ui-dist package (no CDN). */
export function docsRouter(spec: object, swagger2: () => object): Router {
  const router = express.Router({ strict: true });
  // Made on first request, not at start (issue 36): the Swagger 2.0 rendition alone is 1 MiB of JSON to parse and keep.
  let specJson: string | undefined;
  let swaggerJson: string | undefined;
  router.get("/api/v1", (_req, res) => res.redirect(301, "/api/v1/"));
  router.get("/api/v1/", (_req, res) => res.type("html").send(PAGE));
  router.get("/api/v1/openapi.json", (_req, res) => res.type("json").send((specJson ??= JSON.stringify(spec))));
  // Where flask-restplus served Swagger 2.0: the rendition the contract's build makes.
  router.get("/api/v1/swagger.json", (_req, res) => res.type("json").send((swaggerJson ??= JSON.stringify(swagger2()))));
  router.get("/api/v1/docs/init.js", (_req, res) => res.type("js").send(INIT));
  router.use("/api/v1/docs", express.static(SWAGGER_UI_DIR, { index: false }));
  return router;
}

export function isDocsPath(path: string): boolean {
  return path === "/api/v1" || path === "/api/v1/" || path === "/api/v1/openapi.json" || path === "/api/v1/swagger.json" || path.startsWith("/api/v1/docs/");
}
