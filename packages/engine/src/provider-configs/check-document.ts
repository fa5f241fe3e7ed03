import { parseProviderConfig } from "../config/parse-provider-config.js";
import { toConfigFile, type ProviderConfigFile } from "../config/provider-config.js";
import { BenchwrightError, isBenchwrightError } from "../errors.js";
import type { ResolvedConfig } from "../model/resolved-config.js";
import { credentialsTooShort, MIN_SECRET_LENGTH } from "../secrets/scrub.js";

type ProblemEntry = { path: string; message: string };

/** Each service type of a configuration as a session would resolve it (Form A). */
export function resolvedServices(file: ProviderConfigFile): ResolvedConfig[] {
  return Object.keys(file.services).map((serviceType) => ({
    name: file.name,
    serviceType,
    providerClass: file.providerClass,
    provider: file.provider,
    service: file.services[serviceType] as Record<string, unknown>,
    origin: "stored",
  }));
}

/**
 * Checks a configuration written through the API as a file's is read, and further: every
 * service type is parsed as a session on it would be, so that a session never finds what the
 * write could have. Every problem at once, at its place in the request body (`/body/vms/port`);
 * never a credential in the text.
 */
export function checkDocument(name: string, document: Record<string, unknown>): ProviderConfigFile {
  let file: ProviderConfigFile;
  try {
    file = toConfigFile(name, document);
  } catch (e) {
    throw inBody(e);
  }
  const problems: ProblemEntry[] = [];
  const add = (entry: ProblemEntry) => {
    if (!problems.some((p) => p.path === entry.path && p.message === entry.message)) problems.push(entry);
  };
  const types = Object.keys(file.services);
  if (types.length === 0) add({ path: "/body", message: "has no service-type section: must hold at least one beside provider" });
  for (const type of types) {
    const section = file.services[type];
    if (!section || typeof section !== "object" || Array.isArray(section)) {
      add({ path: `/body/${type}`, message: "is not a mapping: a service-type section must be one" });
    }
  }
  for (const resolved of resolvedServices(file)) {
    if (!resolved.service || typeof resolved.service !== "object" || Array.isArray(resolved.service)) continue;
    try {
      parseProviderConfig(resolved);
    } catch (e) {
      if (!isBenchwrightError(e)) throw e;
      for (const entry of inBody(e).extras.errors ?? [{ path: "/body", message: e.detail }]) add(entry);
    }
    for (const at of credentialsTooShort(resolved)) {
      add({ path: ["/body", ...at].join("/"), message: `is too short to be masked in logs: must be at least ${MIN_SECRET_LENGTH} characters` });
    }
  }
  if (problems.length) {
    const lines = problems.map((p) => `${dotted(p.path)} ${p.message}`);
    throw new BenchwrightError("invalid_configuration", `The ${file.providerClass} configuration '${name}' cannot be used: ${lines.join("; ")}`, {
      errors: problems,
    });
  }
  return file;
}

/** The problems of a configuration at their place in the request body, as a session's inline ones are. */
function inBody(e: unknown): BenchwrightError {
  if (!isBenchwrightError(e)) throw e;
  const errors = e.extras.errors?.map((x) =>
    x.path === "/config" || x.path.startsWith("/config/") ? { ...x, path: `/body${x.path.slice("/config".length)}` } : x,
  );
  return errors ? new BenchwrightError(e.code, e.detail, { ...e.extras, errors }) : e;
}

/** `vms.hosts[1].port` for `/body/vms/hosts/1/port`, as a person reads the field in a detail line. */
function dotted(path: string): string {
  const parts = path.split("/").slice(2);
  if (parts.length === 0) return "the configuration";
  return parts.map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");
}
