import { BenchwrightError } from "../../errors.js";
import type { Provider, ResolvedConfig } from "../provider.js";
import { lazyProvider } from "../lazy-provider.js";
import { CLOUD_DRIVERS, cloudSettings, driverOf, type CloudProviderOptions } from "./cloud-config.js";
import { OpenStackProvider } from "./openstack-provider.js";

export { CLOUD_DRIVERS, cloudConfigErrors, validateCloudConfig, type CloudProviderOptions } from "./cloud-config.js";
export { EC2_KINDS } from "./ec2-kinds.js";
export { OPENSTACK_KINDS, OpenStackProvider } from "./openstack-provider.js";

/** The cloud provider for `config.provider.driver`; the configuration is checked first. */
export function createCloudProvider(config: ResolvedConfig, options: CloudProviderOptions = {}): Provider {
  const driver = driverOf(config);
  switch (driver) {
    case "ec2":
      // Checked now, as the provider's constructor would; the AWS SDK loads with the first use.
      cloudSettings(config, options);
      return lazyProvider(async () => new (await import("./ec2-provider.js")).Ec2Provider(config, options));
    case "openstack":
      return new OpenStackProvider(config, options);
    default:
      throw new BenchwrightError(
        "invalid_configuration",
        `Unknown cloud driver '${driver}'; valid drivers: ${CLOUD_DRIVERS.join(", ")}`,
        { choices: [...CLOUD_DRIVERS], errors: [{ path: "provider.driver", message: `must be one of: ${CLOUD_DRIVERS.join(", ")}` }] },
      );
  }
}
