import { BenchwrightError } from "../errors.js";

/** Seconds a client is told to wait when the database cannot be reached. */
const RETRY_AFTER_SECONDS = 5;

/**
 * Errors that mean "the database could not be reached or went away", not "the query was
 * wrong": network errors, the server shutting down or refusing connections, and
 * node-postgres' own messages for a connection that died or never came.
 */
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);
const SQLSTATE_CLASSES = ["08", "57P", "53300"];
const MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|terminating connection|the database system is (starting up|shutting down)|Connection refused/i;

export function isDatabaseUnreachable(e: unknown): boolean {
  if (!e || typeof e !== "object") return false;
  const { code, message } = e as { code?: unknown; message?: unknown };
  if (typeof code === "string" && (NETWORK_CODES.has(code) || SQLSTATE_CLASSES.some((c) => code.startsWith(c)))) return true;
  return typeof message === "string" && MESSAGES.test(message);
}

/** The 503 problem a request gets while the database is out; nothing was changed. */
function databaseUnavailable(cause: unknown): BenchwrightError {
  return new BenchwrightError(
    "unavailable",
    "The database is unreachable; nothing was changed. Try again in a few seconds",
    { retry_after: RETRY_AFTER_SECONDS },
    { cause },
  );
}

/** Runs a database call, turning an outage into the 503 problem. */
export async function orUnavailable<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    throw isDatabaseUnreachable(e) ? databaseUnavailable(e) : e;
  }
}
