export { DbLogStore } from "./db-log-store.js";
export { logFilePath, type LogStore, type LogWriter } from "./log-store.js";
export { logStoreFor } from "./log-store-for.js";
export { followIntoLog } from "./follow-into-log.js";
export { openStepLog, type StepLogView } from "./step-log-view.js";
export { maskingSecrets } from "./secret-masking-writer.js";
