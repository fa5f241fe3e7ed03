import type { Request, Response } from "express";
import type { Page } from "@benchwright/engine";

/**
 * A list's query (filters and page) as the engine takes it. The validator has checked it
 * against the contract; here `limit` becomes a number and `state` (`completed,run_failed`) a
 * list, whether or not the validator already made them so.
 */
export function listQueryOf<Query>(req: Request): Query {
  const query: Record<string, unknown> = { ...(req.query as Record<string, unknown>) };
  if (query.limit !== undefined) query.limit = Number(query.limit);
  if (typeof query.state === "string") query.state = query.state.split(",");
  return query as Query;
}

/**
 * Sends one page of a list. The body is the plain array the seed's lists answer, so that a
 * list asked for without `limit` is what it always was; the next page, when there is one, is
 * named in headers: `Link` (RFC 8288, this request with the next `cursor`) and `X-Next-Cursor`.
 */
export function sendPage(req: Request, res: Response, page: Page<unknown>): void {
  if (page.next !== undefined) {
    const next = new URL(req.originalUrl, "http://host");
    next.searchParams.set("cursor", page.next);
    res.set("Link", `<${next.pathname}${next.search}>; rel="next"`);
    res.set("X-Next-Cursor", page.next);
  }
  res.status(200).json(page.items);
}
