import { readFileSync, readdirSync, existsSync } from "node:fs";
import { basename, extname, join } from "node:path";
import { parseYaml } from "@benchwright/catalog";
import { BenchwrightError } from "../errors.js";
import type { ProviderClass, ResolvedConfig } from "../model/resolved-config.js";
import { parseIni } from "./ini.js";
import { configError, describeValue, problem } from "./config-problem.js";

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

const PROVIDER_CLASSES = Object.keys(CLASS_ALIASES);

export function canonicalClass(name: unknown): ProviderClass {
  const found = typeof name === "string" && Object.hasOwn(CLASS_ALIASES, name) ? CLASS_ALIASES[name] : undefined;
  if (!found) {
    throw configError(
      "Unknown provider class",
      [problem(["provider", "class"], describeValue("class", name), `must be one of: ${PROVIDER_CLASSES.join(", ")}`)],
      "unknown_provider_class",
      {
        choices: PROVIDER_CLASSES,
      },
    );
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
    throw configError(`Configuration '${name}' cannot be used`, [
      problem(["provider"], describeValue("provider", provider), "must be a mapping naming at least the class"),
    ]);
  }
  return { name, providerClass: canonicalClass(provider.class), provider, services };
}

/** Reads `<configDir>/providers/*.yaml|*.yml|*.json|*.conf`; a file that cannot be read is reported, not fatal. */
export function loadProviderConfigs(configDir: string, onError: (file: string, error: Error) => void = () => {}): ProviderConfigFile[] {
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
        ext === ".conf" ? Object.fromEntries(Object.entries(parseIni(text)).map(([k, v]) => [k, typed(v)])) : (parseYaml(text) as Record<string, unknown>);
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
    throw configError(
      "An inline configuration cannot be used",
      [problem([], `has ${types.length} service-type sections`, "must hold the provider section and exactly one service-type section")],
      "invalid_configuration",
      { choices: types },
    );
  }
  return resolveService(file, types[0], "inline");
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
    if (types.length === 1) return resolveService(file, types[0], "stored");
    throw new BenchwrightError(
      "unknown_service_type",
      types.length ? `Provider '${provider}' has ${types.length} service types: name one of them in 'service'` : `Provider '${provider}' has no service type`,
      { choices: types },
    );
  }
  // Own sections only: `constructor` or `__proto__` is no service type of any configuration.
  if (!Object.hasOwn(file.services, service)) {
    throw new BenchwrightError("unknown_service_type", `Provider '${provider}' has no service type '${service}'`, {
      choices: Object.keys(file.services),
    });
  }
  return resolveService(file, service, "stored");
}

/** The sections as written: what a session seals, and what parseProviderConfig reads, then and after every restart. */
function resolveService(file: ProviderConfigFile, serviceType: string, origin: ResolvedConfig["origin"]): ResolvedConfig {
  return {
    name: file.name,
    serviceType,
    providerClass: file.providerClass,
    provider: { ...file.provider },
    service: { ...file.services[serviceType] },
    origin,
  };
}
