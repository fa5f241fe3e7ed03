import type { CloudConfig } from "../../config/provider-config-types.js";
import { scrubberOf } from "../../secrets/scrub.js";
import type { Provider } from "../provider.js";
import { lazyProvider } from "../lazy-provider.js";
import { cloudSettings, type CloudProviderOptions } from "./cloud-settings.js";
import { CloudProvider } from "./cloud-provider.js";
import { OpenStackDriver } from "./openstack-driver.js";

export type { CloudProviderOptions } from "./cloud-settings.js";
export { EC2_KINDS } from "./ec2-kinds.js";
export { OPENSTACK_KINDS } from "./openstack-driver.js";

/** The cloud provider for the configuration's driver. */
export function createCloudProvider(config: CloudConfig, options: CloudProviderOptions = {}): Provider {
  const scrubber = scrubberOf(config);
  switch (config.driver) {
    case "ec2": {
      const settings = cloudSettings(config, options);
      // The AWS SDK loads with the first use.
      return lazyProvider(async () => new CloudProvider(settings, new (await import("./ec2-driver.js")).Ec2Driver(settings, options), scrubber));
    }
    case "openstack": {
      const settings = cloudSettings(config, options);
      return new CloudProvider(settings, new OpenStackDriver(settings, options, scrubber), scrubber);
    }
    case "azure": {
      const settings = cloudSettings(config, options);
      // Azure's clients load with the first use, as the other SDKs do.
      return lazyProvider(async () => new CloudProvider(settings, new (await import("./azure-driver.js")).AzureDriver(settings, options), scrubber));
    }
    case "gce": {
      const settings = cloudSettings(config, options);
      // Google's client takes seconds to load: only with the first use.
      return lazyProvider(async () => new CloudProvider(settings, new (await import("./gce-driver.js")).GceDriver(settings, options), scrubber));
    }
  }
}
