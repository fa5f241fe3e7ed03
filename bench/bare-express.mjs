// The reference server: a bare Express 5 app answering every GET with fixed bytes, with
// the same settings as the real app (no ETag, no X-Powered-By) and the same "listening"
// log line, so that the bench scripts start and time both the same way.
// Environment: BARE_BODY_FILE, BARE_CONTENT_TYPE, HOST, PORT (0 = any).
import { readFileSync } from "node:fs";
import express from "express";

const body = readFileSync(process.env.BARE_BODY_FILE);
const contentType = process.env.BARE_CONTENT_TYPE ?? "application/json; charset=utf-8";
const app = express();
app.disable("x-powered-by");
app.set("etag", false);
app.get("/{*path}", (_req, res) => {
  res.type(contentType).send(body);
});
const server = app.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? "127.0.0.1", () => {
  const { address, port } = server.address();
  process.stderr.write(JSON.stringify({ level: 30, time: new Date().toISOString(), msg: "listening", url: `http://${address}:${port}` }) + "\n");
});
server.keepAliveTimeout = 65_000;
process.once("SIGTERM", () => server.close(() => process.exit(0)));
process.once("SIGINT", () => server.close(() => process.exit(0)));
