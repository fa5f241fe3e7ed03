import type { Request, RequestHandler } from "express";
import { dereferenced } from "./contract-ref.js";

/**
 * A request with no bytes of body (`Content-Length: 0`) to an operation whose body is
 * optional has no body, whatever its Content-Type says: Java's HttpURLConnection with
 * `doOutput` sends `application/x-www-form-urlencoded` when none is set, and `curl -d ''`
 * does too. The type is dropped, so that the validator sees no body instead of answering
 * 415 for a type nothing was sent in. A required body stays required, and any body with
 * bytes is checked as it came.
 */
export function emptyOptionalBody(contract: object, operationOf: (req: Request) => { requestBody?: unknown } | undefined): RequestHandler {
  const optional = (body: unknown): boolean => {
    const b = dereferenced(contract, body as { required?: boolean } | undefined);
    return !!b && !b.required;
  };
  return (req, _res, next) => {
    if (req.headers["content-length"] === "0" && req.headers["transfer-encoding"] === undefined && optional(operationOf(req)?.requestBody)) {
      delete req.headers["content-type"];
    }
    next();
  };
}
