// `node --import` this file: at exit, the process writes every module it loaded (ES modules by
// URL, CommonJS ones by path) to $LOADED_MODULES_FILE, one a line. ES modules are seen by a
// load hook (module.register), which runs on a thread of its own and posts each URL back;
// CommonJS ones are require's cache.
import { writeFileSync } from "node:fs";
import { createRequire, register } from "node:module";
import { MessageChannel } from "node:worker_threads";

const seen = new Set();
const { port1, port2 } = new MessageChannel();
port1.on("message", (url) => seen.add(url));
port1.unref();
const hooks =
  "let port; export function initialize(d) { port = d.port; } export async function load(url, context, next) { port.postMessage(url); return next(url, context); }";
register(`data:text/javascript,${encodeURIComponent(hooks)}`, { data: { port: port2 }, transferList: [port2] });
process.on("exit", () => {
  for (const path of Object.keys(createRequire(import.meta.url).cache)) seen.add(path);
  writeFileSync(process.env.LOADED_MODULES_FILE, [...seen].join("\n"));
});
