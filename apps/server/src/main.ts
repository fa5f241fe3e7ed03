#!/usr/bin/env node
import { readConfig } from "./config.js";
import { createLogger } from "./logger.js";
import { startServer } from "./server.js";

const log = createLogger();
try {
  const config = readConfig();
  const running = await startServer(config, log);
  log("listening", { url: `${running.url}/api/v1/`, dataDir: config.dataDir, configDir: config.configDir, database: config.databaseUrl ? "postgresql" : "pglite" });
  const stop = async () => {
    log("stopping");
    await running.close();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
} catch (e) {
  log("cannot start", { error: (e as Error).message });
  process.exit(1);
}
