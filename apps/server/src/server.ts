import type { Server } from "node:http";
import { Engine } from "@benchwright/engine";
import { createApp } from "./app.js";
import { assertSafeToListen, type ServerConfig } from "./config.js";
import type { Logger } from "./logger.js";

export interface RunningServer {
  url: string;
  engine: Engine;
  server: Server;
  close(): Promise<void>;
}

/** Opens the engine and listens; used by main.ts and by tests that want a real server. */
export async function startServer(config: ServerConfig, log: Logger, extra: { validateResponses?: boolean } = {}): Promise<RunningServer> {
  assertSafeToListen(config);
  const engine = await Engine.open({
    dataDir: config.dataDir,
    configDir: config.configDir,
    databaseUrl: config.databaseUrl,
    log: (line) => log(line),
  });
  const app = createApp({ engine, token: config.token, log, validateResponses: extra.validateResponses });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.port, config.host, () => resolve(s));
    s.once("error", reject);
  });
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
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await engine.close();
    },
  };
}
