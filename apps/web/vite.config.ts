import { defineConfig, type ProxyOptions } from "vite";

/**
 * `npx vite` serves the page on its own origin, where the page calls the API (`/api/v1`): those
 * calls go on to a Benchwright server, `BENCHWRIGHT_URL` (the Prism mock, `npm run mock`, is
 * `http://127.0.0.1:4010`). Without the proxy the dev server answered them with index.html.
 */
const apiTarget = process.env.BENCHWRIGHT_URL ?? "http://127.0.0.1:5000";

/**
 * The server refuses a change from an origin other than its own (a page of another site must
 * not act through the user's browser). The proxy names the server in `Host` (changeOrigin): a
 * call of the dev server's own page gets the server's origin with it, and any other page's
 * origin goes on as it came, to be refused.
 */
const forOwnPage: ProxyOptions["configure"] = (proxy) => {
  proxy.on("proxyReq", (proxyReq, req) => {
    const origin = req.headers.origin;
    if (origin !== undefined && URL.canParse(origin) && new URL(origin).host === req.headers.host) {
      proxyReq.setHeader("origin", new URL(apiTarget).origin);
    }
  });
};

export default defineConfig({
  // Relative asset URLs: the same build works at the server's /ui/ and from any static host.
  base: "./",
  // ECharts is a chunk of its own, loaded with the first chart (charts/chart-element.ts): about 579 kB
  // minified (198 kB gzip) for bars, scatter, lines, custom series, grid, tooltip, mark lines and areas
  // (a series' trend) and SVG. The limit is its budget.
  build: { outDir: "dist", emptyOutDir: true, target: "es2022", chunkSizeWarningLimit: 600 },
  server: { proxy: { "/api": { target: apiTarget, changeOrigin: true, configure: forOwnPage } } },
});
