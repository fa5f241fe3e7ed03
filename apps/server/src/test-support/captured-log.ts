import { createLogger, type Logger, type LogLevelName } from "../operations/logger.js";

export interface CapturedLog {
  log: Logger;
  /** Every line written, as written. */
  raw: string[];
  /** Every line, parsed (a line that is not JSON fails the test that reads it). */
  entries(): Array<Record<string, unknown>>;
}

/** The server's logger (redaction and all) writing into memory. */
export function captureLog(level: LogLevelName = "info"): CapturedLog {
  const raw: string[] = [];
  const log = createLogger({ level, destination: { write: (chunk: string) => void raw.push(...chunk.split("\n").filter(Boolean)) } });
  return { log, raw, entries: () => raw.map((line) => JSON.parse(line) as Record<string, unknown>) };
}
