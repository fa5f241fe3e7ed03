#!/usr/bin/env node
import { readConfig } from "./config.js";
import { createLogger } from "./logger.js";
import { serve, stopOnSignals } from "./processes.js";

const log = createLogger();
try {
  const config = readConfig();
  const running = await serve(config, log);
  stopOnSignals((deadline) => running.close(deadline), config.stopTimeoutMs ?? 10_000, log);
} catch (e) {
  log("cannot start", { error: (e as Error).message });
  process.exit(1);
}
