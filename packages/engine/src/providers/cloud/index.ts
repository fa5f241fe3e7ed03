import { BenchwrightError } from "../../errors.js";
import { scrubberOf } from "../../secrets/scrub.js";
import type { Provider, ResolvedConfig } from "../provider.js";
import { lazyProvider } from "../lazy-provider.js";
import { CLOUD_DRIVERS, cloudSettings, driverOf, type CloudProviderOptions } from "./cloud-config.js";
import { CloudProvider } from "./cloud-provider.js";
import { OpenStackDriver } from "./openstack-driver.js";

export { CLOUD_DRIVERS, cloudConfigErrors, validateCloudConfig, type CloudProviderOptions } from "./cloud-config.js";
export type { CloudDriver } from "./cloud-driver.js";
export { CloudProvider } from "./cloud-provider.js";
export { EC2_KINDS } from "./ec2-kinds.js";
export { OPENSTACK_KINDS } from "./openstack-driver.js";

/** The cloud provider for `config.provider.driver`; the configuration is checked first. */
export function createCloudProvider(config: ResolvedConfig, options: CloudProviderOptions = {}): Provider {
  const driver = driverOf(config);
  if (!(CLOUD_DRIVERS as readonly string[]).includes(driver)) {
    throw new BenchwrightError(
      "invalid_configuration",
      `Unknown cloud driver '${driver}'; valid drivers: ${CLOUD_DRIVERS.join(", ")}`,
      { choices: [...CLOUD_DRIVERS], errors: [{ path: "provider.driver", message: `must be one of: ${CLOUD_DRIVERS.join(", ")}` }] },
    );
  }
  const settings = cloudSettings(config, options);
  const scrubber = scrubberOf(config);
  switch (settings.driver) {
    case "ec2":
      // The AWS SDK loads with the first use.
      return lazyProvider(async () => new CloudProvider(config, settings, new (await import("./ec2-driver.js")).Ec2Driver(settings, options), scrubber));
    case "openstack":
      return new CloudProvider(config, settings, new OpenStackDriver(settings, options, scrubber), scrubber);
    case "gce":
      // Google's client takes seconds to load: only with the first use.
      return lazyProvider(async () => new CloudProvider(config, settings, new (await import("./gce-driver.js")).GceDriver(settings, options), scrubber));
  }
}
