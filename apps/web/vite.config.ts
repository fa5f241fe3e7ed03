import { defineConfig } from "vite";

/**
 * `npx vite` serves the page on its own origin, where the page calls the API (`/api/v1`): those
 * calls go on to a Benchwright server, `BENCHWRIGHT_URL` (the Prism mock, `npm run mock`, is
 * `http://127.0.0.1:4010`). Without the proxy the dev server answered them with index.html.
 */
const apiTarget = process.env.BENCHWRIGHT_URL ?? "http://127.0.0.1:5000";

export default defineConfig({
  // Relative asset URLs: the same build works at the server's /ui/ and from any static host.
  base: "./",
  // ECharts is a chunk of its own, loaded with the first chart (charts/chart-element.ts): about 535 kB
  // minified (183 kB gzip) for bars, scatter, custom series, grid, tooltip and SVG. The limit is its budget.
  build: { outDir: "dist", emptyOutDir: true, target: "es2022", chunkSizeWarningLimit: 560 },
  server: { proxy: { "/api": { target: apiTarget, changeOrigin: true } } },
});
