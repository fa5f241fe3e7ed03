export { createApp, type AppOptions } from "./app.js";
export { startServer, type RunningServer } from "./process/server.js";
export { readConfig, assertSafeToListen, isLoopback, type ServerConfig } from "./process/config.js";
export { parseFieldsMask, applyFieldsMask } from "./api/fields-mask.js";
export {
  createLogger,
  engineLogOf,
  logFormatOf,
  logLevelOf,
  silentLogger,
  type LogFormat,
  type Logger,
  type LoggerOptions,
} from "./operations/logger.js";
export { runCli } from "./cli.js";
