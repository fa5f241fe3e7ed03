import type { Request, RequestHandler } from "express";
import { dereferenced } from "./contract-ref.js";
import type { OpenApiRequest } from "../api/routes.js";

/** The verdicts kept: a client polling each of this many executions is answered from them. */
export const REMEMBERED_PATHS = 4096;

/** A parameter as the contract declares it, or a reference to one in `components.parameters`. */
interface Parameter {
  $ref?: string;
  in?: string;
  name?: string;
}

interface Spec {
  paths: Record<string, Record<string, unknown> | undefined>;
}

/**
 * The names (lowercase) of the header parameters of each operation, by operationId, the
 * path item's and the operation's own, references resolved.
 */
export function headerParametersByOperation(spec: Spec): Map<string, readonly string[]> {
  const resolve = (p: Parameter): Parameter => dereferenced(spec, p) ?? {};
  const headers = new Map<string, readonly string[]>();
  for (const item of Object.values(spec.paths)) {
    const shared = (item?.parameters as Parameter[] | undefined) ?? [];
    for (const operation of Object.values(item ?? {}) as Array<{ operationId?: string; parameters?: Parameter[] }>) {
      if (!operation?.operationId) continue;
      const all = [...shared, ...(operation.parameters ?? [])].map(resolve);
      headers.set(
        operation.operationId,
        all.filter((p) => p.in === "header" && p.name).map((p) => p.name!.toLowerCase()),
      );
    }
  }
  return headers;
}

/**
 * express-openapi-validator's verdict on a read that carries nothing but its path (a GET or
 * HEAD without a query string, and without any header the operation declares) is the same
 * every time for that path: the operation and its parameters, coerced and checked. A success
 * is kept for the last REMEMBERED_PATHS such paths, so a client polling an execution pays
 * the validator once; a refusal is not kept, nor is anything a request could make differ
 * (a query, a body, a declared header). The validator's lookup alone went through every
 * operation's pattern on each request. Only where answers are not validated: the validator
 * would check those on their way out.
 */
export function rememberedValidation(
  validate: RequestHandler,
  operationId: (req: Request) => string | undefined,
  headerParameters: ReadonlyMap<string, readonly string[]>,
): RequestHandler {
  const verdicts = new Map<string, NonNullable<OpenApiRequest["openapi"]>>();
  const keyOf = (req: Request): string | undefined => {
    if ((req.method !== "GET" && req.method !== "HEAD") || req.url !== req.originalUrl || req.url.includes("?")) return undefined;
    const declared = headerParameters.get(operationId(req) ?? "");
    if (!declared || declared.some((name) => req.headers[name] !== undefined)) return undefined;
    return `${req.method} ${req.url}`;
  };
  return (req, res, next) => {
    const key = keyOf(req);
    const known = key === undefined ? undefined : verdicts.get(key);
    if (known) {
      // Each request its own copy: a handler may change its parameters.
      const openapi = { ...known, pathParams: { ...known.pathParams } };
      (req as OpenApiRequest).openapi = openapi;
      req.params = openapi.pathParams as Request["params"];
      return next();
    }
    validate(req, res, (err?: unknown) => {
      const openapi = (req as OpenApiRequest).openapi;
      if (!err && key !== undefined && openapi) {
        if (verdicts.size >= REMEMBERED_PATHS) verdicts.delete(verdicts.keys().next().value!);
        verdicts.set(key, { ...openapi, pathParams: { ...openapi.pathParams } });
      }
      next(err as Error | undefined);
    });
  };
}
