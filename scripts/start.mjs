// `npm start` from a clone: the server first (only its packages built, by turbo, then the
// server itself, in this process), and the dashboard built behind it once the server answers:
// /ui/ serves it as soon as it is there (before that, /ui/ says it is being built). A person
// waits only for what answers them.
//
// The server runs here, not as a child: its own signal handling (a Ctrl-C or SIGTERM stops it
// well) is this process's. The dashboard's build is a child, stopped when this process ends.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TURBO = fileURLToPath(new URL("../node_modules/.bin/turbo", import.meta.url));

function turboBuild(filter) {
  const child = spawn(TURBO, ["run", "build", `--filter=${filter}`, "--output-logs=errors-only"], { cwd: ROOT, stdio: "inherit" });
  return { child, exited: new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? (signal ? 128 : 1)))) };
}

const built = await turboBuild("@benchwright/server...").exited;
if (built !== 0) process.exit(built);

await import("../apps/server/dist/main.js");

const host = !process.env.HOST || ["0.0.0.0", "::"].includes(process.env.HOST) ? "127.0.0.1" : process.env.HOST;
const healthz = `http://${host.includes(":") ? `[${host}]` : host}:${process.env.PORT || 5000}/healthz`;
// The dashboard is built once the server answers, so that it does not slow the first answer.
for (let tries = 0; tries < 600; tries++) {
  if (await fetch(healthz).then(() => true, () => false)) break;
  await new Promise((r) => setTimeout(r, 100));
}
// turbo's cache makes this quick when the dashboard's sources have not changed.
const web = turboBuild("@benchwright/web");
process.once("exit", () => web.child.kill("SIGTERM"));
const code = await web.exited;
if (code !== 0) console.error(`the dashboard's build failed (${code}): the server goes on without /ui/; npm run build -w @benchwright/web says why`);
