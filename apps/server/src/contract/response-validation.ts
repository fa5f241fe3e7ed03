import type { Logger } from "../operations/logger.js";

/** How responses are checked against the contract: `BENCHWRIGHT_VALIDATE_RESPONSES`. */
export type ResponseValidation = "off" | "log" | "fail";

const MODES: readonly ResponseValidation[] = ["off", "log", "fail"];

/**
 * The mode `BENCHWRIGHT_VALIDATE_RESPONSES` names, `off` when unset. Checking a response runs
 * AJV over the whole body: on a list of sessions it cost more than everything else the
 * request did. The contract tests check every response (`fail`); a running server trusts its
 * own answers unless told to log (`log`) or refuse (`fail`) those that break the contract.
 */
export function responseValidationOf(env: NodeJS.ProcessEnv = process.env): ResponseValidation {
  const value = (env.BENCHWRIGHT_VALIDATE_RESPONSES ?? "").trim().toLowerCase() || "off";
  if (!MODES.includes(value as ResponseValidation)) {
    throw new Error(`BENCHWRIGHT_VALIDATE_RESPONSES must be one of ${MODES.join(", ")}, not '${env.BENCHWRIGHT_VALIDATE_RESPONSES}'`);
  }
  return value as ResponseValidation;
}

/** express-openapi-validator's `validateResponses` for a mode. */
export function validateResponsesOption(mode: ResponseValidation, log: Logger) {
  if (mode === "fail") return true;
  if (mode === "off") return false;
  return {
    onError: (err: { message: string }, _body: unknown, req: { originalUrl: string; log?: Logger }) =>
      (req.log ?? log).warn({ path: req.originalUrl, error: err.message }, "response breaks the contract"),
  };
}

const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

/**
 * A copy of the bundled contract for a validator that checks requests only: every operation
 * answers `default`, undescribed. express-openapi-validator prepares every response schema
 * at its first request, checked or not: about a tenth of the time to the server's first answer.
 */
export function withoutResponses<T extends object>(spec: T): T {
  const paths = (spec as { paths?: Record<string, Record<string, unknown>> }).paths ?? {};
  const stripped = Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([key, op]) =>
          METHODS.has(key) && op && typeof op === "object" ? [key, { ...op, responses: { default: { description: "Not checked" } } }] : [key, op],
        ),
      ),
    ]),
  );
  return { ...spec, paths: stripped };
}
