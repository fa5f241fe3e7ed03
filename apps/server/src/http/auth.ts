import { createHash, timingSafeEqual } from "node:crypto";
import type { RequestHandler } from "express";
import { BenchwrightError } from "@benchwright/engine";
import { isDocsPath } from "../operations/docs.js";

/** With a token configured, every operation but the docs needs `Authorization: Bearer <token>`. */
export function requireBearerToken(token: string): RequestHandler {
  const expected = digest(token);
  return (req, _res, next) => {
    if (isDocsPath(req.path)) return next();
    const match = /^Bearer\s+(.+)$/i.exec(req.get("authorization") ?? "");
    if (match && timingSafeEqual(digest(match[1].trim()), expected)) return next();
    next(new BenchwrightError("unauthorized", "Send Authorization: Bearer <token> with the server's API token"));
  };
}

function digest(s: string): Buffer {
  return createHash("sha256").update(s).digest();
}
