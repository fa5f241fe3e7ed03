import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

const REQUEST_ID_HEADER = "X-Request-Id";

/**
 * A proxy's or client's id is kept, so that its lines and ours join up; but it lands in every
 * log line of the request, so only a short token of safe characters is taken as it is.
 */
const ACCEPTED = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id (the caller's `X-Request-Id` when acceptable, else a new UUID), also sent back in the answer. */
export function requestIdOf(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers["x-request-id"];
  const id = typeof given === "string" && ACCEPTED.test(given) ? given : randomUUID();
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}
