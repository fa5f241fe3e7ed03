import type { SessionCreate } from "@benchwright/contract";
import { configError, problem } from "../config/config-problem.js";
import { resolveInline, resolveStored, type ProviderConfigFile } from "../config/provider-config.js";
import type { ProviderConfig } from "../config/provider-config-types.js";
import { parseProviderConfig } from "../config/parse-provider-config.js";
import type { ResolvedConfig } from "../model/resolved-config.js";
import { BenchwrightError, isBenchwrightError } from "../errors.js";
import { credentialsTooShort, MIN_SECRET_LENGTH } from "../secrets/scrub.js";

/**
 * The configuration a new session asks for, inline (Form B) or stored (Form A), as resolved
 * (what the session seals) and as parsed, refused if a session cannot use it.
 */
export function sessionConfigOf(
  body: SessionCreate,
  limits: { providerConfigs: () => ProviderConfigFile[]; maxStepTimeoutS: number },
): { resolved: ResolvedConfig; config: ProviderConfig } {
  try {
    return checkedConfigOf(body, limits);
  } catch (e) {
    throw "config" in body && body.config ? inBody(e) : e;
  }
}

/**
 * An inline configuration's problems at their place in the request, `/body/config/vms/port`, as
 * every other validation problem is (docs/api.md); a stored configuration's stay at
 * `/config/...`, a place in that configuration, which the request does not hold.
 */
function inBody(e: unknown): unknown {
  if (!isBenchwrightError(e) || !e.extras.errors?.length) return e;
  const errors = e.extras.errors.map((x) => (x.path === "/config" || x.path.startsWith("/config/") ? { ...x, path: `/body${x.path}` } : x));
  return new BenchwrightError(e.code, e.detail, { ...e.extras, errors });
}

function checkedConfigOf(
  body: SessionCreate,
  limits: { providerConfigs: () => ProviderConfigFile[]; maxStepTimeoutS: number },
): { resolved: ResolvedConfig; config: ProviderConfig } {
  const resolved =
    "config" in body && body.config
      ? resolveInline(body.config as Record<string, unknown>)
      : resolveStored(limits.providerConfigs(), (body as { provider: string }).provider, formAService(body as FormAServices));
  const config = parseProviderConfig(resolved);
  // Refused here, not where a session's configuration is read again: sessions made before stay usable.
  const problems = credentialsTooShort(resolved).map((at) =>
    problem(at, "is too short to be masked in logs", `must be at least ${MIN_SECRET_LENGTH} characters`),
  );
  const { maxStepTimeoutS } = limits;
  if (config.stepTimeoutS !== undefined && config.stepTimeoutS > maxStepTimeoutS) {
    problems.push(
      problem([config.serviceType, "step_timeout"], `is ${config.stepTimeoutS}`, `must be at most ${maxStepTimeoutS} seconds, this server's bound`),
    );
  }
  if (problems.length) throw configError(`The ${config.class} configuration '${config.name}' cannot be used`, problems);
  return { resolved, config };
}

type FormAServices = { service?: string | null; "service-type"?: string | null };

/** Form A's service type, in our spelling or in the Benchmarking Suite REST server's (`service-type`). */
function formAService(body: FormAServices): string | null | undefined {
  const ours = body.service ?? undefined;
  const ancestors = body["service-type"] ?? undefined;
  if (ours !== undefined && ancestors !== undefined && ours !== ancestors) {
    throw new BenchwrightError("validation_failed", `Give service or service-type, not both with different values ('${ours}', '${ancestors}')`, {
      errors: [{ path: "/body/service-type", message: "differs from /body/service" }],
    });
  }
  return ours ?? ancestors;
}
