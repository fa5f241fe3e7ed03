import type { ProviderConfig } from "../config/provider-config-types.js";
import { createCloudProvider } from "./cloud/index.js";
import { ExistingVmProvider } from "./existing-vm.js";
import { LocalProvider } from "./local.js";
import type { Provider } from "./provider.js";

/** What the engine may override per provider class (tests inject cloud doubles here). */
export interface ProviderOptions {
  cloud?: Parameters<typeof createCloudProvider>[1];
}

export function createProvider(config: ProviderConfig, options: ProviderOptions = {}): Provider {
  switch (config.class) {
    case "local":
      return new LocalProvider(config);
    case "existing-vm":
      return new ExistingVmProvider(config);
    case "cloud":
      return createCloudProvider(config, options.cloud);
  }
}
