export { createApp, type AppOptions } from "./app.js";
export { startServer, type RunningServer } from "./server.js";
export { readConfig, assertSafeToListen, isLoopback, type ServerConfig } from "./config.js";
export { parseFieldsMask, applyFieldsMask } from "./fields-mask.js";
export { createLogger, engineLogOf, logFormatOf, logLevelOf, silentLogger, type LogFormat, type Logger, type LoggerOptions } from "./logger.js";
export { runCli } from "./cli.js";
