import { spawnSync } from "node:child_process";
import { connect } from "node:net";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import request from "supertest";
import express from "express";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadSpec } from "@benchwright/contract";
import { contractResponseHeaders } from "../http/cors.js";
import { createLogger, engineLogOf, requestLogger } from "./logger.js";
import { captureLog } from "../test-support/captured-log.js";
import { openFixture, type Fixture } from "../test-support/fixture.js";

type Answer = { $ref?: string; description?: string; headers?: Record<string, unknown> };

const MAIN = resolve(dirname(fileURLToPath(import.meta.url)), "../../dist/main.js");

describe("the server's logger", () => {
  it("writes only lines at or above its level", () => {
    const { log, entries } = captureLog("warn");
    log.info("not shown");
    log.warn({ n: 1 }, "shown");
    expect(entries()).toMatchObject([{ level: 40, msg: "shown", n: 1 }]);
    expect(entries()[0].time).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("redacts credential headers, and credential fields of a body or a configuration", () => {
    const { log, raw } = captureLog();
    log.info(
      {
        req: { headers: { authorization: "Bearer tok-123456", cookie: "sid=abcdef", "proxy-authorization": "Basic eHl6OnNlY3JldA==" } },
        body: {
          config: {
            provider: { secret_key: "sk-top-secret", access_id: "AKIA0000" },
            vms: { ssh_private_key: "-----BEGIN KEY-----", password: "pw-123456" },
          },
        },
        config: { micro: { passphrase: "pp-123456" } },
        password: "pw-top",
      },
      "a request",
    );
    for (const secret of ["tok-123456", "sid=abcdef", "eHl6OnNlY3JldA==", "sk-top-secret", "AKIA0000", "BEGIN KEY", "pw-123456", "pp-123456", "pw-top"]) {
      expect(raw.join("\n")).not.toContain(secret);
    }
    expect(JSON.parse(raw[0])).toMatchObject({
      req: { headers: { authorization: "***" } },
      body: { config: { vms: { password: "***" } } },
    });
  });

  it("gives the engine's lines their level and what they concern", () => {
    const { log, entries } = captureLog();
    engineLogOf(log)("run 1 of execution e failed", { level: "warn", session_id: "s", execution_id: "e", step: "run", attempt: 1 });
    engineLogOf(log)("a plain line");
    expect(entries()).toEqual([
      expect.objectContaining({
        level: 40,
        msg: "run 1 of execution e failed",
        session_id: "s",
        execution_id: "e",
        step: "run",
        attempt: 1,
      }),
      expect.objectContaining({ level: 30, msg: "a plain line" }),
    ]);
    // Written outside any request: no request's id (those inside one: see observability.test.ts).
    expect(entries()[1]).not.toHaveProperty("reqId");
  });

  it("keeps the process from starting on a LOG_LEVEL that does not exist, saying why in a pino line", () => {
    const run = spawnSync(process.execPath, [MAIN], {
      env: { ...process.env, LOG_LEVEL: "loud", PORT: "0" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    const line = JSON.parse(run.stderr.trim().split("\n").pop()!);
    expect(line).toMatchObject({ level: 60, msg: "cannot start" });
    expect(line.error).toMatch(/^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, not 'loud'$/);
  });
});

describe("the log's format", () => {
  const env = { ...process.env, LOG_LEVEL: "loud", PORT: "0", BENCHWRIGHT_LOG_FORMAT: undefined };
  const readable = /^\[\d\d:\d\d:\d\d\.\d{3}\] FATAL.*: cannot start\n\s+error: "LOG_LEVEL must be one of/m;

  it("is one readable line per event with BENCHWRIGHT_LOG_FORMAT=pretty", () => {
    const run = spawnSync(process.execPath, [MAIN], {
      env: { ...env, BENCHWRIGHT_LOG_FORMAT: "pretty" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(readable);
    expect(run.stderr).not.toContain('"level":60');
  });

  it("is readable by default on a terminal, JSON elsewhere and with BENCHWRIGHT_LOG_FORMAT=json", () => {
    // `script` gives the server a pseudo-terminal: what it writes comes back on script's stdout.
    const onTerminal = spawnSync("script", ["-qfec", `'${process.execPath}' '${MAIN}'`, "/dev/null"], {
      env,
      encoding: "utf8",
      timeout: 30_000,
      stdio: ["ignore", "pipe", "pipe"],
    });
    expect(onTerminal.status).toBe(1);
    // eslint-disable-next-line no-control-regex -- a terminal's lines are coloured
    expect(onTerminal.stdout.replaceAll("\r", "").replace(/\x1b\[[0-9;]*m/g, "")).toMatch(readable);
    const json = spawnSync("script", ["-qfec", `'${process.execPath}' '${MAIN}'`, "/dev/null"], {
      env: { ...env, BENCHWRIGHT_LOG_FORMAT: "json" },
      encoding: "utf8",
      timeout: 30_000,
      stdio: ["ignore", "pipe", "pipe"],
    });
    expect(json.stdout).toContain('"level":60');
  });

  it("refuses a format it does not know, saying which it knows", () => {
    const run = spawnSync(process.execPath, [MAIN], {
      env: { ...env, LOG_LEVEL: "info", BENCHWRIGHT_LOG_FORMAT: "yaml" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("BENCHWRIGHT_LOG_FORMAT must be pretty or json, not 'yaml'");
  });

  it("masks credentials in readable lines too", () => {
    const raw: string[] = [];
    const log = createLogger({ format: "pretty", destination: { write: (chunk: string) => void raw.push(chunk) } });
    log.info({ req: { headers: { authorization: "Bearer tok-123456" } }, password: "pw-top" }, "a request");
    log.flush();
    expect(raw.join("")).toMatch(/INFO.*: a request/);
    expect(raw.join("")).not.toMatch(/tok-123456|pw-top/);
  });
});

describe("X-Request-Id", () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await openFixture();
  });
  afterAll(async () => fx?.close());

  it("takes the caller's id when it is a short token of safe characters, and makes one otherwise", async () => {
    const kept = await request(fx.app).get("/api/v1/benchmarks/").set("X-Request-Id", "edge-7f3a:01.b_c").expect(200);
    expect(kept.headers["x-request-id"]).toBe("edge-7f3a:01.b_c");
    for (const refused of ["x".repeat(129), "has spaces", 'a"quote', '{"json":1}', ""]) {
      const res = await request(fx.app).get("/api/v1/benchmarks/").set("X-Request-Id", refused).expect(200);
      expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    const made = await request(fx.app).get("/api/v1/benchmarks/").expect(200);
    const other = await request(fx.app).get("/api/v1/benchmarks/").expect(200);
    expect(made.headers["x-request-id"]).not.toBe(other.headers["x-request-id"]);
    const logged = fx.log
      .entries()
      .filter((e) => e.msg === "request completed")
      .map((e) => e.reqId);
    expect(logged).toContain("edge-7f3a:01.b_c");
    expect(logged).toContain(made.headers["x-request-id"]);
  });

  it("is declared on every answer of the contract, so that a page may read it (CORS exposes the contract's headers)", () => {
    const spec = loadSpec() as {
      paths: Record<string, Record<string, { responses?: Record<string, Answer> }>>;
      components: { responses: Record<string, Answer> };
    };
    const answers = Object.values(spec.paths).flatMap((item) => Object.values(item).flatMap((op) => Object.entries(op.responses ?? {})));
    expect(answers.length).toBeGreaterThan(50);
    for (const [status, answer] of answers) {
      const whole = answer.$ref ? spec.components.responses[answer.$ref.split("/").pop()!] : answer;
      expect(whole.headers?.["X-Request-Id"], `${status} ${answer.$ref ?? answer.description}`).toBeDefined();
    }
    expect(contractResponseHeaders(spec)).toContain("X-Request-Id");
  });

  it("is on problems and on answers outside the API too", async () => {
    expect((await request(fx.app).get("/api/v1/sessions/nope").expect(400)).headers["x-request-id"]).toBeTruthy();
    expect((await request(fx.app).get("/healthz").expect(200)).headers["x-request-id"]).toBeTruthy();
    expect((await request(fx.app).get("/metrics").expect(200)).headers["x-request-id"]).toBeTruthy();
  });
});

describe("a request's line", () => {
  /** An app with only the request logger and routes that answer as `status` says, or never. */
  function loggedApp() {
    const captured = captureLog();
    const app = express();
    app.use(requestLogger(captured.log, (req) => `op:${req.path}`));
    app.get("/status/:code", (req, res) => {
      req.log!.info({ detail: 1 }, "served");
      res.status(Number(req.params.code)).json({});
    });
    app.get("/hang", () => {});
    return { app, ...captured };
  }

  it("is one line at the end, at the level its status calls for, with the request's id on every line written for it", async () => {
    const { app, entries } = loggedApp();
    for (const code of [200, 404, 503]) await request(app).get(`/status/${code}`).set("X-Request-Id", `id-${code}`).set("Authorization", "Bearer tok-secret-1");
    const ended = entries().filter((e) => e.msg === "request completed" || e.msg === "request errored");
    expect(ended.map((e) => [e.reqId, e.level, e.msg, (e.res as { statusCode: number }).statusCode, e.operation])).toEqual([
      ["id-200", 30, "request completed", 200, "op:/status/200"],
      ["id-404", 40, "request completed", 404, "op:/status/404"],
      ["id-503", 50, "request errored", 503, "op:/status/503"],
    ]);
    expect(ended[0]).toMatchObject({ req: { method: "GET", url: "/status/200", headers: { authorization: "***" } } });
    expect(typeof ended[0].responseTime).toBe("number");
    expect(
      entries()
        .filter((e) => e.msg === "served")
        .map((e) => e.reqId),
    ).toEqual(["id-200", "id-404", "id-503"]);
    expect(JSON.stringify(entries())).not.toContain("tok-secret-1");
  });

  it("says so when the client went away before the answer, once", async () => {
    const { app, entries } = loggedApp();
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    const { port } = server.address() as { port: number };
    const socket = connect(port, "127.0.0.1");
    socket.write("GET /hang HTTP/1.1\r\nHost: x\r\nX-Request-Id: gone-1\r\n\r\n");
    await new Promise((r) => setTimeout(r, 200));
    socket.destroy();
    await vi.waitFor(() => expect(entries().filter((e) => e.reqId === "gone-1")).toHaveLength(1));
    expect(entries().find((e) => e.reqId === "gone-1")).toMatchObject({ aborted: true, msg: "request completed" });
    server.close();
  });
});
