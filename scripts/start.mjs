// `npm start` from a clone: the server answers first, everything else is built behind it.
// 1. The JavaScript of the server's packages, transpiled by esbuild from the current sources
//    (scripts/quick-build.mjs: a second, where tsc takes a minute on two cores).
// 2. The server, in this process: its own signal handling (Ctrl-C, SIGTERM) stops it well.
// 3. Once it answers, the whole build (turbo: type checks, declarations, the dashboard), whose
//    modules replace the transpiled ones; /ui/ serves the dashboard as soon as it is built.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { quickBuild } from "./quick-build.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TURBO = fileURLToPath(new URL("../node_modules/.bin/turbo", import.meta.url));

await quickBuild();
await import("../apps/server/dist/main.js");

const host = !process.env.HOST || ["0.0.0.0", "::"].includes(process.env.HOST) ? "127.0.0.1" : process.env.HOST;
const healthz = `http://${host.includes(":") ? `[${host}]` : host}:${process.env.PORT || 5000}/healthz`;
// Built once the server answers, so that it does not slow the first answer.
for (let tries = 0; tries < 600; tries++) {
  if (
    await fetch(healthz).then(
      () => true,
      () => false,
    )
  )
    break;
  await new Promise((r) => setTimeout(r, 100));
}
// Its output is the server's terminal's only if it fails: the log stays the server's.
const whole = spawn(TURBO, ["run", "build", "--output-logs=errors-only"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
let said = "";
for (const stream of [whole.stdout, whole.stderr]) stream.setEncoding("utf8").on("data", (t) => (said = (said + t).slice(-20_000)));
process.once("exit", () => whole.kill("SIGTERM"));
whole.once("exit", (code) => {
  if (code) console.error(`${said}\nthe whole build failed (${code}): the server goes on as transpiled, without /ui/ if the dashboard did not build`);
});
