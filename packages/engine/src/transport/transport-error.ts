/**
 * A failure to reach or talk to a machine, as opposed to a command that ran and failed.
 * `retryable` says whether trying again (after a reconnect) may succeed: a dropped
 * connection is retryable, a refused authentication is not.
 */
export class TransportError extends Error {
  readonly retryable: boolean;
  constructor(message: string, options: { retryable: boolean; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = "TransportError";
    this.retryable = options.retryable;
  }
}

export function isRetryableTransportError(e: unknown): e is TransportError {
  return e instanceof TransportError && e.retryable;
}
