import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequire } from "node:module";
import express, { type Request, type RequestHandler } from "express";
import { pino, type DestinationStream, type Logger as PinoLogger } from "pino";
import { CREDENTIAL_KEYS, MASK, type EngineLog } from "@benchwright/engine";
import { requestIdOf } from "./request-id.js";

/** The server's logger, and the request's own child of it once made (see definedRequestLog). */
const BASE_LOG = Symbol("baseLog");
const REQUEST_LOG = Symbol("requestLog");

declare module "node:http" {
  interface IncomingMessage {
    /** The request's id (see requestIdOf), set first thing by requestLogger. */
    id?: string;
    /** Lines written for this request, each with its `reqId`. */
    log?: PinoLogger;
    [BASE_LOG]?: PinoLogger;
    [REQUEST_LOG]?: PinoLogger;
  }
}

/** pino: one JSON line per event, with a numeric `level`, `time` and `msg`. */
export type Logger = PinoLogger;

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

/** `LOG_LEVEL`, `info` when unset; anything else is refused, so that a typo does not silence the logs. */
export function logLevelOf(env: NodeJS.ProcessEnv = process.env): LogLevelName {
  const value = (env.LOG_LEVEL ?? "").trim().toLowerCase() || "info";
  if (!LOG_LEVELS.includes(value as LogLevelName)) {
    throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, not '${env.LOG_LEVEL}'`);
  }
  return value as LogLevelName;
}

/** The credential headers a request's line can hold: requestLogFields masks them itself. */
const CREDENTIAL_HEADERS = ["authorization", "proxy-authorization", "cookie"] as const;

/**
 * Where a credential could sit in a logged object: the request's credential headers (logged
 * with every request), and credential-named fields at the top, in a body and in a session's
 * configuration (`body.config.provider.secret_key`, `config.<service>.password`), should a line
 * ever carry one. Paths are spelled out: a leading wildcard (`*.password`) made every request's
 * line 15 times slower, whereas these cost only when such an object is logged. Free text is the
 * engine's scrubber's: it masks every form of a session's secrets in its lines.
 */
const REDACTED_PATHS: readonly string[] = [
  // Any line that logs a request the way a request's line does.
  "req.headers.authorization",
  'req.headers["proxy-authorization"]',
  "req.headers.cookie",
  'res.headers["set-cookie"]',
  ...CREDENTIAL_KEYS.flatMap((key) => [
    key,
    `body.${key}`,
    `config.${key}`,
    `body.config.provider.${key}`,
    `config.provider.${key}`,
    `body.config.*.${key}`,
    // A provider configuration's document, as PUT /providers/{name} takes it.
    `body.provider.${key}`,
    `body.*.${key}`,
    `config.*.${key}`,
  ]),
];

/** The request headers a request's line keeps: enough to tell who called and with what, credentials masked. */
const LOGGED_HEADERS = ["host", "user-agent", "content-type", "content-length", "x-forwarded-for", ...CREDENTIAL_HEADERS] as const;
const MASKED_HEADERS: ReadonlySet<string> = new Set(CREDENTIAL_HEADERS);

/**
 * What a request's line says of the request: its method, whole path, caller and a few headers.
 * pino's standard serializer copies every header into each request's child logger, which made
 * logging the largest cost of a small read (a third of `GET /executions/{id}`).
 */
function requestLogFields(req: IncomingMessage & { originalUrl?: string; id?: unknown }): Record<string, unknown> {
  const headers: Record<string, unknown> = {};
  for (const name of LOGGED_HEADERS) if (req.headers[name] !== undefined) headers[name] = MASKED_HEADERS.has(name) ? MASK : req.headers[name];
  return {
    id: req.id,
    method: req.method,
    url: req.originalUrl ?? req.url,
    headers,
    remoteAddress: req.socket?.remoteAddress,
    remotePort: req.socket?.remotePort,
  };
}

/** What a request's line says of the answer. */
function answerLogFields(res: ServerResponse): Record<string, unknown> {
  return { statusCode: res.statusCode };
}

const LOG_FORMATS = ["pretty", "json"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * `BENCHWRIGHT_LOG_FORMAT`: `json` (a line of JSON per event, for collectors) or `pretty` (a
 * readable line, for a person). Unset: pretty when stderr is a terminal, JSON elsewhere.
 */
export function logFormatOf(env: NodeJS.ProcessEnv = process.env, terminal = Boolean(process.stderr.isTTY)): LogFormat {
  const value = (env.BENCHWRIGHT_LOG_FORMAT ?? "").trim().toLowerCase();
  if (!value) return terminal ? "pretty" : "json";
  if (!LOG_FORMATS.includes(value as LogFormat)) {
    throw new Error(`BENCHWRIGHT_LOG_FORMAT must be ${LOG_FORMATS.join(" or ")}, not '${env.BENCHWRIGHT_LOG_FORMAT}'`);
  }
  return value as LogFormat;
}

export interface LoggerOptions {
  /** Default `info`. */
  level?: LogLevelName;
  /** Default: `BENCHWRIGHT_LOG_FORMAT`'s (see logFormatOf; a wrong value is readConfig's to refuse). */
  format?: LogFormat;
  /** Default: stderr, in writes of up to 4 KiB at least every {@link FLUSH_MS} (see createLogger). */
  destination?: DestinationStream;
}

/** The longest a line waits in the default destination's buffer before it is written. */
const FLUSH_MS = 100;

export function createLogger(options: LoggerOptions = {}): Logger {
  const format = options.format ?? defaultFormat();
  return pino(
    {
      level: options.level ?? "info",
      redact: { paths: [...REDACTED_PATHS], censor: MASK },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    format === "pretty" ? prettyLines(options.destination) : (options.destination ?? bufferedStderr()),
  );
}

function defaultFormat(): LogFormat {
  try {
    return logFormatOf();
  } catch {
    // Said by readConfig, through this very logger: it must exist to say it.
    return logFormatOf({});
  }
}

/**
 * pino-pretty's readable lines, `[10:15:02.120] INFO: listening` and the line's fields below
 * it, coloured on a terminal. Loaded only when asked for: a JSON log does not pay for it.
 * Each line is written when logged: a person watching waits for nothing.
 */
function prettyLines(destination: DestinationStream | undefined): DestinationStream {
  const { prettyFactory } = createRequire(import.meta.url)("pino-pretty") as typeof import("pino-pretty");
  const prettify = prettyFactory({
    colorize: destination === undefined && Boolean(process.stderr.isTTY),
    translateTime: "SYS:HH:MM:ss.l",
    ignore: "pid,hostname",
  });
  const out = destination ?? pino.destination({ dest: 2, sync: true });
  return { write: (line: string) => void out.write(prettify(line)) };
}

/**
 * stderr, with the lines of a busy moment gathered into one write: one write per line (a
 * system call, and a wake-up of whoever reads the pipe) cost a small read more than the line
 * itself. A quiet server's lines wait FLUSH_MS at most. pino writes what is left synchronously
 * when the process exits, process.exit and a fatal error included; only a SIGKILL can lose
 * the last FLUSH_MS of lines.
 */
function bufferedStderr(): DestinationStream {
  const stream = pino.destination({ dest: 2, sync: false, minLength: 4096 });
  setInterval(() => stream.flush(), FLUSH_MS).unref();
  return stream;
}

/**
 * One line per request, at its end: its id (sent back as X-Request-Id), method, path,
 * caller, status, time and `operation(req)`; at `warn` for a 4xx, `error` for a 5xx. Lines
 * written while serving it (`req.log`) carry its `reqId`. In place of pino-http, whose two
 * child loggers per request, made whether anything logs through them or not, cost more than
 * the line.
 */
export function requestLogger(log: Logger, operation: (req: Request) => string): RequestHandler {
  definedRequestLog();
  // These lines hold only what requestLogFields and answerLogFields pick, and the first masks
  // its credential headers: checking the paths the logger knows of cost as much as writing the line.
  const lines = log.child({}, { redact: { paths: [], censor: MASK } });
  return (req, res, next) => {
    const start = performance.now();
    const reqId = requestIdOf(req, res);
    req.id = reqId;
    req[BASE_LOG] = log;
    // An answer's "close" comes once it is sent (after "finish"), or when its client went away.
    res.on("close", () => {
      const status = res.statusCode;
      const level = status >= 500 ? "error" : status >= 400 ? "warn" : "info";
      if (!lines.isLevelEnabled(level)) return;
      const line = {
        reqId,
        req: requestLogFields(req),
        res: answerLogFields(res),
        responseTime: Math.round(performance.now() - start),
        operation: operation(req),
        // The client went away before the whole answer was sent.
        ...(res.writableFinished ? {} : { aborted: true }),
      };
      lines[level](line, status >= 500 ? "request errored" : "request completed");
    });
    next();
  };
}

/**
 * `req.log`, made when first asked for, on the prototype of every Express request: a getter
 * defined on each request gave each its own hidden class, and every read of any of a
 * request's properties, in Express and here, had to tell them apart.
 */
function definedRequestLog(): void {
  if (Object.hasOwn(express.request, "log")) return;
  Object.defineProperty(express.request, "log", {
    configurable: true,
    get(this: IncomingMessage) {
      const base = this[BASE_LOG];
      return base && (this[REQUEST_LOG] ??= base.child({ reqId: this.id }));
    },
  });
}

/** For tests and embedders that want no output. */
export const silentLogger: Logger = pino({ level: "silent" });

/** The id of the request being served, for the engine's lines, which are written without one. */
const servedRequest = new AsyncLocalStorage<string>();

/**
 * Serves the rest of a request with its id (`req.id`) at hand, so that the engine's
 * lines written for it (a synchronous prepare's provider and step lines among them) carry its
 * `reqId` like the request's own. Entered after the body is read: the body's stream events run
 * outside any context entered before them.
 */
export const withRequestId: RequestHandler = (req, _res, next) => servedRequest.run(String(req.id), next);

/** The engine's lines through the logger: what a line concerns (session, execution, step) becomes its fields. */
export function engineLogOf(log: Logger): EngineLog {
  return (line, { level = "info", ...fields } = {}) => {
    const reqId = servedRequest.getStore();
    log[level](reqId === undefined ? fields : { reqId, ...fields }, line);
  };
}
