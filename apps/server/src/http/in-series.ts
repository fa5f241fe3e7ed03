import type { NextFunction, RequestHandler } from "express";

/**
 * Middlewares run one after the other as one layer. Express's router pays, for each of its
 * layers and on every request, a match, a parse of the path and a trim of its prefix: for the
 * dozen small steps an operation's request passes, that cost more than most of them did.
 * Whatever a middleware gives its `next` (an error, `"route"`), throws, or rejects with reaches
 * the router as from a layer of its own.
 */
export function inSeries(...handlers: RequestHandler[]): RequestHandler {
  return (req, res, done) => {
    let i = 0;
    const next: NextFunction = (err?: unknown) => {
      if (err !== undefined && err !== null) return done(err);
      const handler = handlers[i++];
      if (!handler) return done();
      try {
        const served: unknown = handler(req, res, next);
        if (served instanceof Promise) served.catch((e: unknown) => done(e ?? new Error("A middleware's promise was rejected without a reason")));
      } catch (e) {
        done(e);
      }
    };
    next();
  };
}
