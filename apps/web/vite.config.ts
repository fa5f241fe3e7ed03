import { defineConfig } from "vite";

export default defineConfig({
  // Relative asset URLs: the same build works at the server's /ui/ and from any static host.
  base: "./",
  build: { outDir: "dist", emptyOutDir: true, target: "es2022" },
});
