import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import { pino, type DestinationStream, type Logger as PinoLogger } from "pino";
import { CREDENTIAL_KEYS, MASK, type EngineLog } from "@benchwright/engine";

/** pino: one JSON line per event, with a numeric `level`, `time` and `msg`. */
export type Logger = PinoLogger;

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

/** `LOG_LEVEL`, `info` when unset; anything else is refused, so that a typo does not silence the logs. */
export function logLevelOf(env: NodeJS.ProcessEnv = process.env): LogLevelName {
  const value = (env.LOG_LEVEL ?? "").trim().toLowerCase() || "info";
  if (!LOG_LEVELS.includes(value as LogLevelName)) {
    throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, not '${env.LOG_LEVEL}'`);
  }
  return value as LogLevelName;
}

/**
 * Where a credential could sit in a logged object: the request's credential headers (logged
 * with every request), and credential-named fields at the top, in a body and in a session's
 * configuration (`body.config.provider.secret_key`, `config.<service>.password`), should a line
 * ever carry one. Paths are spelled out: a leading wildcard (`*.password`) made every request's
 * line 15 times slower, whereas these cost only when such an object is logged. Free text is the
 * engine's scrubber's: it masks every form of a session's secrets in its lines.
 */
export const REDACTED_PATHS: readonly string[] = [
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
    `config.*.${key}`,
  ]),
];

/** The request headers a request's line keeps: enough to tell who called and with what, credentials masked. */
const LOGGED_HEADERS = ["host", "user-agent", "content-type", "content-length", "x-forwarded-for", "authorization", "proxy-authorization", "cookie"] as const;

/**
 * What a request's line says of the request: its method, whole path, caller and a few headers.
 * pino's standard serializer copies every header into each request's child logger, which made
 * logging the largest cost of a small read (a third of `GET /executions/{id}`).
 */
export function requestLogFields(req: IncomingMessage & { originalUrl?: string; id?: unknown }): Record<string, unknown> {
  const headers: Record<string, unknown> = {};
  for (const name of LOGGED_HEADERS) if (req.headers[name] !== undefined) headers[name] = req.headers[name];
  return { id: req.id, method: req.method, url: req.originalUrl ?? req.url, headers, remoteAddress: req.socket?.remoteAddress, remotePort: req.socket?.remotePort };
}

/** What a request's line says of the answer. */
export function answerLogFields(res: ServerResponse): Record<string, unknown> {
  return { statusCode: res.statusCode };
}

export interface LoggerOptions {
  /** Default `info`. */
  level?: LogLevelName;
  /** Default: stderr, written synchronously (a line logged just before an exit is not lost). */
  destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? "info",
      redact: { paths: [...REDACTED_PATHS], censor: MASK },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination ?? pino.destination({ dest: 2, sync: true }),
  );
}

/** For tests and embedders that want no output. */
export const silentLogger: Logger = pino({ level: "silent" });

/** The id of the request being served, for the engine's lines, which are written without one. */
const servedRequest = new AsyncLocalStorage<string>();

/**
 * Serves the rest of a request with its id (pino-http's `req.id`) at hand, so that the engine's
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
