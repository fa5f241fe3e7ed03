#!/usr/bin/env node
import { readConfig } from "./process/config.js";
import { createLogger } from "./operations/logger.js";
import { serve, stopOnSignals } from "./process/processes.js";

// At `info` until LOG_LEVEL is read: a bad value is itself a reason not to start, and is said.
const log = createLogger();
try {
  const config = readConfig();
  log.level = config.logLevel ?? "info";
  // The handlers before the start: a signal while it starts (it answers before it has announced
  // its providers) would otherwise end the process unstopped, its exit handlers unrun.
  const running = serve(config, log);
  stopOnSignals(async (deadline) => (await running).close(deadline), config.stopTimeoutMs ?? 10_000, log);
  await running;
} catch (e) {
  log.fatal({ error: (e as Error).message }, "cannot start");
  process.exit(1);
}
