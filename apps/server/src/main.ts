#!/usr/bin/env node
import { readConfig } from "./process/config.js";
import { createLogger } from "./operations/logger.js";
import { serve, stopOnSignals } from "./process/processes.js";

// At `info` until LOG_LEVEL is read: a bad value is itself a reason not to start, and is said.
const log = createLogger();
try {
  const config = readConfig();
  log.level = config.logLevel ?? "info";
  const running = serve(config, log);
  stopOnSignals(running, config.stopTimeoutMs ?? 10_000, log);
  await running;
} catch (e) {
  log.fatal({ error: (e as Error).message }, "cannot start");
  process.exit(1);
}
