import type { Request, RequestHandler, Response } from "express";
import { describe, expect, it } from "vitest";
import { inSeries } from "./in-series.js";

/** Runs the series on a bare request: what reached the end, in order, and what the router got. */
async function through(...handlers: RequestHandler[]) {
  const seen: string[] = [];
  const req = { seen } as unknown as Request;
  const given = await new Promise<unknown>((resolve) => inSeries(...handlers)(req, {} as Response, resolve));
  return { seen, given };
}

const mark =
  (name: string): RequestHandler =>
  (req, _res, next) => {
    (req as unknown as { seen: string[] }).seen.push(name);
    next();
  };

describe("middlewares in series", () => {
  it("runs each in turn, those that call next later too, then gives the router nothing", async () => {
    const later: RequestHandler = (req, res, next) => void setTimeout(() => mark("later")(req, res, next), 5);
    expect(await through(mark("a"), later, mark("b"))).toEqual({ seen: ["a", "later", "b"], given: undefined });
  });

  it("stops at an error, whether given to next, thrown or rejected, and gives it to the router", async () => {
    const error = new Error("no");
    for (const failing of [
      ((_req, _res, next) => next(error)) as RequestHandler,
      (() => {
        throw error;
      }) as RequestHandler,
      (async () => {
        throw error;
      }) as RequestHandler,
    ]) {
      expect(await through(mark("a"), failing, mark("never"))).toEqual({ seen: ["a"], given: error });
    }
  });

  it("gives the router what it alone understands, such as 'route'", async () => {
    expect(await through((_req, _res, next) => next("route"), mark("never"))).toEqual({ seen: [], given: "route" });
  });
});
