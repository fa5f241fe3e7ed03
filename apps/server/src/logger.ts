/** One JSON line per event on stderr. Callers pass no credential; the engine redacts what it logs. */
export type Logger = (message: string, fields?: Record<string, unknown>) => void;

export function createLogger(stream: NodeJS.WritableStream = process.stderr): Logger {
  return (message, fields = {}) => {
    stream.write(JSON.stringify({ time: new Date().toISOString(), message, ...fields }) + "\n");
  };
}

export const silentLogger: Logger = () => {};
