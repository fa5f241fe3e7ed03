export { createApp, type AppOptions } from "./app.js";
export { startServer, type RunningServer } from "./server.js";
export { readConfig, assertSafeToListen, isLoopback, type ServerConfig } from "./config.js";
export { parseFieldsMask, applyFieldsMask } from "./fields-mask.js";
export { createLogger, silentLogger, type Logger } from "./logger.js";
