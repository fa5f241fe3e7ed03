import { maxHeaderSize, STATUS_CODES, type Server } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import { BenchwrightError, Engine } from "@benchwright/engine";
import { createApp } from "../app.js";
import { assertSafeToListen, outboundPolicyOf, webhookOptionsOf, type ServerConfig } from "./config.js";
import { engineLogOf, type Logger } from "../operations/logger.js";
import { problemOf } from "../http/problem.js";

export interface RunningServer {
  url: string;
  engine: Engine;
  server: Server;
  /** Stops taking requests, hands running steps back (they go on on their hosts) and closes, within `deadlineMs` (default: the configuration's). */
  close(deadlineMs?: number): Promise<void>;
}

/**
 * Opens the engine and listens; used by main.ts and by tests that want a real server. `extra` is
 * for tests: the responses validated against the contract, and a new embedded
 * database started from a migrated image (`migratedPgliteImage`) instead of initdb.
 */
export async function startServer(config: ServerConfig, log: Logger, extra: { validateResponses?: boolean; pgliteImage?: Blob } = {}): Promise<RunningServer> {
  assertSafeToListen(config);
  const engine = await Engine.open({
    dataDir: config.dataDir,
    configDir: config.configDir,
    builtinLocal: config.builtinLocal,
    databaseUrl: config.databaseUrl,
    work: config.work,
    queueSchema: config.queueSchema,
    maxStepTimeoutS: config.maxStepTimeoutS,
    // Plan runs keep the quotas too: the run driver, in whichever process holds a run, waits for room.
    quotas: config.quotas,
    scheduler: config.scheduleMinIntervalS === undefined ? undefined : { minIntervalMs: config.scheduleMinIntervalS * 1000 },
    log: engineLogOf(log),
    outbound: outboundPolicyOf(config),
    webhooks: webhookOptionsOf(config),
    pgliteImage: extra.pgliteImage,
  });
  const app = createApp({
    engine,
    token: config.token,
    corsOrigins: config.corsOrigins,
    uiApiOrigins: config.uiApiOrigins,
    allowedHosts: [config.host, ...(config.allowedHosts ?? [])],
    providerRoles: config.providerRoles,
    log,
    validateResponses: extra.validateResponses,
    metricsPublic: config.metricsPublic,
    maxEventSubscribers: config.maxEventSubscribers,
    rateLimit: config.rateLimit,
    quotas: config.quotas,
    processMetrics: true,
  });
  let server: Server;
  try {
    server = await listen(app, config);
  } catch (e) {
    await engine.close();
    throw e;
  }
  answerClientErrors(server);
  // Prepare and run answer when the step ends, which may take an hour: no timeout may cut them.
  server.requestTimeout = 0;
  server.timeout = 0;
  server.keepAliveTimeout = 65_000;
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  return {
    url: `http://${host}:${port}`,
    engine,
    server,
    async close(deadlineMs = config.stopTimeoutMs ?? 10_000) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Requests waiting for a step answer 503 once it is handed back; streams end with the process.
      await engine.close(deadlineMs);
      server.closeAllConnections();
      await closed;
    },
  };
}

/**
 * Express 5 hands a failure to listen to the callback (not as an `error` event): it is the
 * server's reason not to start, and an address in use is said with what to change.
 */
function listen(app: ReturnType<typeof createApp>, config: ServerConfig): Promise<Server> {
  return new Promise((resolve, reject) => {
    const s = app.listen(config.port, config.host, (error?: Error) => (error ? reject(listenError(error, config)) : resolve(s)));
  });
}

function listenError(error: NodeJS.ErrnoException, config: Pick<ServerConfig, "host" | "port">): Error {
  const where = `${config.host.includes(":") ? `[${config.host}]` : config.host}:${config.port}`;
  if (error.code === "EADDRINUSE") {
    return new Error(
      `${where} is already in use (EADDRINUSE): another process listens there, perhaps another Benchwright server; stop it, or set PORT (and HOST) to another address`,
    );
  }
  if (error.code === "EACCES") return new Error(`not allowed to listen on ${where} (EACCES): set PORT to a port above 1023, or run with the right to bind it`);
  if (error.code === "EADDRNOTAVAIL") return new Error(`${config.host} is not an address of this machine (EADDRNOTAVAIL): set HOST to one of its addresses`);
  return new Error(`cannot listen on ${where}: ${error.message}`);
}

/**
 * Node's HTTP parser answers a request it cannot parse before Express sees it, with an empty
 * body: these answers are problems like every other. It is attached wherever the app listens.
 */
export function answerClientErrors(server: Server): void {
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
    // As Node does: never write into a response already on its way (a keep-alive connection).
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    if (err.code === "ERR_HTTP_REQUEST_TIMEOUT") {
      // The contract has no problem for a client too slow to send its headers: Node's own answer.
      socket.end("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n");
      return;
    }
    const error =
      err.code === "HPE_HEADER_OVERFLOW"
        ? new BenchwrightError("header_too_large", `The request's header fields are larger than the ${maxHeaderSize} bytes the server accepts`)
        : new BenchwrightError("validation_failed", "The request is not well-formed HTTP/1.1 (request line, header fields or framing)");
    const body = JSON.stringify(problemOf(error));
    socket.end(
      [
        `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}`,
        "Content-Type: application/problem+json; charset=utf-8",
        `Content-Length: ${Buffer.byteLength(body)}`,
        "Connection: close",
        "",
        body,
      ].join("\r\n"),
    );
    // Reading on what the client still sends keeps the kernel from resetting the connection
    // (and dropping the answer) when it closes with unread input; a client that never closes goes.
    socket.resume();
    // A net.Socket, though typed as any Duplex.
    (socket as Socket).setTimeout(10_000, () => socket.destroy());
  });
}
