import type { ResolvedConfig } from "../model/resolved-config.js";
import { secretsOfConfig } from "../secrets/scrub.js";
import { configError, problem, type ConfigProblem } from "./config-problem.js";
import { ConfigSection, type ProviderKey, type ServiceKey } from "./config-section.js";
import { parseCloudConfig } from "./parse-cloud-config.js";
import { parseExistingVm } from "./parse-existing-vm.js";
import { parsePrice } from "./parse-price.js";
import type { OmitEach, ProviderConfig } from "./provider-config-types.js";

/**
 * Reads a session's configuration, as Form A or Form B selected it, into the one typed value
 * the engine and the providers consume: when the session is created, and again from its sealed
 * configuration whenever its provider is needed after that (in another process, after a
 * restart). Refuses it with every problem at once, each naming its field, what is wrong and
 * what is allowed; never with a credential in the text.
 */
export function parseProviderConfig(resolved: ResolvedConfig): ProviderConfig {
  if (resolved.origin === "inline") {
    const refused = reachesIntoTheServer(resolved);
    if (refused.length) throw configError("An inline configuration may not reach into the server", refused);
  }
  const problems: ConfigProblem[] = [];
  const provider = new ConfigSection<ProviderKey>(resolved.provider, ["provider"], problems);
  const service = new ConfigSection<ServiceKey>(resolved.service, [resolved.serviceType], problems);
  const price = parsePrice(service);
  const common = {
    name: resolved.name,
    serviceType: resolved.serviceType,
    stepTimeoutS: service.integer("step_timeout", 1),
    ...(price ? { price } : {}),
  };
  const config = ((): OmitEach<ProviderConfig, "secrets"> | undefined => {
    switch (resolved.providerClass) {
      case "local":
        return {
          ...common,
          class: "local",
          platform: service.text("platform") ?? "",
          allowInstall: service.flag("allow_install") ?? false,
        };
      case "existing-vm":
        return { ...common, class: "existing-vm", ...parseExistingVm(service) };
      case "cloud": {
        const cloud = parseCloudConfig(provider, service);
        return cloud && { ...common, ...cloud };
      }
    }
  })();
  if (problems.length || !config) {
    throw configError(`The ${resolved.providerClass} configuration '${resolved.name}' cannot be used`, problems);
  }
  return { ...config, secrets: [...secretsOfConfig(resolved), ...privateKeysOf(config)] } as ProviderConfig;
}

/** The keys as read (line ends normalized), which is the form they are used, and may be echoed, in. */
function privateKeysOf(config: OmitEach<ProviderConfig, "secrets">): string[] {
  if (config.class === "existing-vm") return config.hosts.flatMap((h) => (h.ssh_private_key ? [h.ssh_private_key] : []));
  if (config.class === "cloud" && config.sshPrivateKey) return [config.sshPrivateKey];
  return [];
}

/**
 * An inline configuration comes from an API client: it may describe the client's machines,
 * not reach into the server's own files or system. Fields that do are for stored
 * configurations only, which the server's operator writes.
 */
function reachesIntoTheServer(resolved: ResolvedConfig): ConfigProblem[] {
  const st = resolved.serviceType;
  const service = resolved.service;
  const refused: ConfigProblem[] = [];
  const keyPath = (at: Array<string | number>) =>
    problem(at, "names a file on the server to use as SSH key", "send ssh_private_key instead, or store the configuration on the server");
  if ("key_path" in service) refused.push(keyPath([st, "key_path"]));
  if (Array.isArray(service.hosts)) {
    service.hosts.forEach((h: unknown, i: number) => {
      if (h && typeof h === "object" && "key_path" in h) refused.push(keyPath([st, "hosts", i, "key_path"]));
    });
  }
  // On local the "machine" is the server: installing means system packages, as root, on it.
  if (resolved.providerClass === "local" && service.allow_install !== undefined && service.allow_install !== false) {
    refused.push(
      problem([st, "allow_install"], "would install system packages on the server itself", "only false here: only a stored local configuration may allow it"),
    );
  }
  return refused;
}
