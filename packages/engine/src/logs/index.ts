export { DbLogStore, MAX_CHUNK_BYTES, type DbLogStoreOptions } from "./db-log-store.js";
export { FileLogStore } from "./file-log-store.js";
export { logSize, openLogStream, readFileTail, readLogTail } from "./log-file.js";
export { LogBackpressure, logFilePath, TAIL_CAPACITY, type ByteRange, type LogStore, type LogWriter, type LogWriterOptions } from "./log-store.js";
export { logStoreFor } from "./log-store-for.js";
export { followIntoLog } from "./follow-into-log.js";
export { FOLLOW_POLL_MS, openStepLog, type LogFollowOptions, type StepLogView } from "./step-log-view.js";
export { maskingSecrets } from "./secret-masking-writer.js";
