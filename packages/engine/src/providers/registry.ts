import { BenchwrightError } from "../errors.js";
import { createCloudProvider, validateCloudConfig } from "./cloud/index.js";
import { ExistingVmProvider, validateExistingVmConfig } from "./existing-vm.js";
import { LocalProvider, validateLocalConfig } from "./local.js";
import type { Provider, ResolvedConfig } from "./provider.js";

/** What the engine may override per provider class (tests inject cloud doubles here). */
export interface ProviderOptions {
  cloud?: Parameters<typeof createCloudProvider>[1];
}

export function createProvider(config: ResolvedConfig, options: ProviderOptions = {}): Provider {
  switch (config.providerClass) {
    case "local":
      return new LocalProvider();
    case "existing-vm":
      return new ExistingVmProvider();
    case "cloud":
      return createCloudProvider(config, options.cloud);
  }
}

/** Refuses a configuration that cannot work, listing every problem at once. */
export function assertValidConfig(config: ResolvedConfig): void {
  const problems =
    config.providerClass === "local"
      ? validateLocalConfig(config)
      : config.providerClass === "existing-vm"
        ? validateExistingVmConfig(config)
        : validateCloudConfig(config);
  if (problems.length) {
    throw new BenchwrightError("invalid_configuration", `The ${config.providerClass} configuration '${config.name}' is incomplete: ${problems.join("; ")}`, {
      errors: problems.map((message) => ({ path: `/config/${config.serviceType}`, message })),
    });
  }
}
