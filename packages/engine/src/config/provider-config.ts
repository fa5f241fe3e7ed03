import { readFileSync, readdirSync, existsSync } from "node:fs";
import { basename, extname, join } from "node:path";
import { parse as parseYaml } from "yaml";
import { BenchwrightError } from "../errors.js";
import type { ProviderClass, ResolvedConfig } from "../providers/provider.js";
import { parseIni } from "./ini.js";

/** The ancestor's class names, and a few spellings users write, mapped to ours. */
const CLASS_ALIASES: Record<string, ProviderClass> = {
  local: "local",
  "existing-vm": "existing-vm",
  existing_vm: "existing-vm",
  "benchsuite.stdlib.provider.existing_vm.ExistingVMProvider": "existing-vm",
  cloud: "cloud",
  libcloud: "cloud",
  "benchsuite.stdlib.provider.libcloud.LibcloudComputeProvider": "cloud",
};

export const PROVIDER_CLASSES = Object.keys(CLASS_ALIASES);

export function canonicalClass(name: unknown): ProviderClass {
  const found = typeof name === "string" ? CLASS_ALIASES[name] : undefined;
  if (!found) {
    throw new BenchwrightError("unknown_provider_class", `Unknown provider class '${String(name)}'`, {
      choices: PROVIDER_CLASSES,
    });
  }
  return found;
}

/** A provider configuration as written: a `provider` section and one section per service type. */
export interface ProviderConfigFile {
  name: string;
  providerClass: ProviderClass;
  provider: Record<string, unknown>;
  services: Record<string, Record<string, unknown>>;
}

/** Keys whose INI text means a number or a flag; YAML and JSON already carry types. */
const INTEGER_KEYS = new Set(["port", "step_timeout", "ssh_timeout"]);
const BOOLEAN_KEYS = new Set(["allow_install", "no_floating_ip"]);

function typed(section: Record<string, string>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(section).map(([k, v]) => {
      if (INTEGER_KEYS.has(k) && /^\d+$/.test(v)) return [k, Number(v)];
      if (BOOLEAN_KEYS.has(k)) return [k, /^(true|yes|1|on)$/i.test(v)];
      return [k, v];
    }),
  );
}

/** Splits `{provider, <service>...}` into a configuration; `name` is what Form A refers to. */
export function toConfigFile(name: string, document: Record<string, unknown>): ProviderConfigFile {
  const { provider, ...services } = document as { provider?: Record<string, unknown> } & Record<string, Record<string, unknown>>;
  if (!provider || typeof provider !== "object") {
    throw new BenchwrightError("invalid_configuration", `Configuration '${name}' has no provider section`);
  }
  return { name, providerClass: canonicalClass(provider.class), provider, services };
}

/** Reads `<configDir>/providers/*.yaml|*.yml|*.json|*.conf`; a file that cannot be read is reported, not fatal. */
export function loadProviderConfigs(
  configDir: string,
  onError: (file: string, error: Error) => void = () => {},
): ProviderConfigFile[] {
  const dir = join(configDir, "providers");
  if (!existsSync(dir)) return [];
  const configs: ProviderConfigFile[] = [];
  for (const file of readdirSync(dir).sort()) {
    const ext = extname(file);
    if (![".yaml", ".yml", ".json", ".conf"].includes(ext)) continue;
    const path = join(dir, file);
    try {
      const text = readFileSync(path, "utf8");
      const document =
        ext === ".conf"
          ? Object.fromEntries(Object.entries(parseIni(text)).map(([k, v]) => [k, typed(v)]))
          : (parseYaml(text) as Record<string, unknown>);
      configs.push(toConfigFile(basename(file, ext), document));
    } catch (e) {
      onError(path, e as Error);
    }
  }
  return configs;
}

/** Form B: the inline `config` with its provider section and exactly one service-type section. */
export function resolveInline(config: Record<string, unknown>): ResolvedConfig {
  const file = toConfigFile(String((config.provider as Record<string, unknown>)?.name ?? "inline"), config);
  const types = Object.keys(file.services);
  if (types.length !== 1) {
    throw new BenchwrightError("invalid_configuration", "An inline config holds the provider section and exactly one service-type section", {
      choices: types,
    });
  }
  assertStaysOffTheServer(file, types[0]);
  return resolveService(file, types[0]);
}

/**
 * An inline configuration comes from an API client: it may describe the client's machines,
 * not reach into the server's own files or system. Fields that do are for stored
 * configurations only, which the server's operator writes.
 */
function assertStaysOffTheServer(file: ProviderConfigFile, serviceType: string): void {
  const service = file.services[serviceType];
  const refused: Array<{ at: Array<string | number>; why: string }> = [];
  const keyPath = "names a file on the server to use as SSH key: send ssh_private_key instead, or store the configuration on the server";
  if (service && typeof service === "object") {
    if ("key_path" in service) refused.push({ at: [serviceType, "key_path"], why: keyPath });
    if (Array.isArray(service.hosts)) {
      service.hosts.forEach((h: unknown, i: number) => {
        if (h && typeof h === "object" && "key_path" in h) refused.push({ at: [serviceType, "hosts", i, "key_path"], why: keyPath });
      });
    }
    // On local the "machine" is the server: installing means system packages, as root, on it.
    if (file.providerClass === "local" && service.allow_install !== undefined && service.allow_install !== false) {
      refused.push({
        at: [serviceType, "allow_install"],
        why: "would install system packages on the server itself: only a stored local configuration may allow it",
      });
    }
  }
  if (refused.length) {
    const field = (at: Array<string | number>) => at.map((p) => (typeof p === "number" ? `[${p}]` : `.${p}`)).join("").slice(1);
    throw new BenchwrightError(
      "invalid_configuration",
      `An inline configuration may not reach into the server: ${refused.map((r) => `${field(r.at)} ${r.why}`).join("; ")}`,
      { errors: refused.map((r) => ({ path: `/config/${r.at.join("/")}`, message: r.why })) },
    );
  }
}

/**
 * Form A: a stored configuration and one of its service types. Without a service type (absent
 * or null), the configuration's only one, as the Benchmarking Suite took it.
 */
export function resolveStored(configs: ProviderConfigFile[], provider: string, service?: string | null): ResolvedConfig {
  const file = configs.find((c) => c.name === provider);
  if (!file) {
    throw new BenchwrightError("unknown_provider", `No provider configuration '${provider}' on this server`, {
      choices: configs.map((c) => c.name),
    });
  }
  if (service === undefined || service === null) {
    const types = Object.keys(file.services);
    if (types.length === 1) return resolveService(file, types[0]);
    throw new BenchwrightError(
      "unknown_service_type",
      types.length
        ? `Provider '${provider}' has ${types.length} service types: name one of them in 'service'`
        : `Provider '${provider}' has no service type`,
      { choices: types },
    );
  }
  if (!file.services[service]) {
    throw new BenchwrightError("unknown_service_type", `Provider '${provider}' has no service type '${service}'`, {
      choices: Object.keys(file.services),
    });
  }
  return resolveService(file, service);
}

function resolveService(file: ProviderConfigFile, serviceType: string): ResolvedConfig {
  const service = { ...file.services[serviceType] };
  if (typeof service.ssh_private_key === "string") service.ssh_private_key = normalizePrivateKey(service.ssh_private_key);
  if (Array.isArray(service.hosts)) {
    service.hosts = service.hosts.map((h: Record<string, unknown>) =>
      typeof h.ssh_private_key === "string" ? { ...h, ssh_private_key: normalizePrivateKey(h.ssh_private_key) } : h,
    );
  }
  return { name: file.name, serviceType, providerClass: file.providerClass, provider: { ...file.provider }, service };
}

/**
 * Private keys arrive with their line ends as JSON `\n` escapes (decoded already), as the
 * two characters backslash-n when a client escaped twice, or indented (INI): all mean newlines.
 */
export function normalizePrivateKey(key: string): string {
  let text = key.replace(/\r\n/g, "\n");
  if (!text.includes("\n") && text.includes("\\n")) text = text.replace(/\\n/g, "\n");
  text = text.split("\n").map((line) => line.trim()).join("\n").trim();
  return text + "\n";
}
