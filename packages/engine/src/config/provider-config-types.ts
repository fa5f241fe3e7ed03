import type { components } from "@benchwright/contract";

type Provider = components["schemas"]["ProviderSection"];
type Service = components["schemas"]["ServiceSection"];
type Host = components["schemas"]["HostEntry"];
/** A field of one of the contract's sections, given: its type is the contract's. */
type Given<Section, K extends keyof Section> = NonNullable<Section[K]>;

export const CLOUD_DRIVERS = ["ec2", "openstack", "gce", "azure"] as const;
export type CloudDriverName = (typeof CLOUD_DRIVERS)[number];

/** What every configuration a session is bound to says, whatever its class. */
interface Common {
  /** The configuration's name (Form A file name, or `config.provider.name`). */
  name: string;
  serviceType: string;
  /** Seconds a step may take before it is killed; the tool definition's default when unset. */
  stepTimeoutS?: Given<Service, "step_timeout">;
  /** Every credential the configuration holds, in each form it was given: what a scrubber masks. */
  secrets: readonly string[];
  /** What an hour of the service type costs (`price_per_hour`): a cloud machine's hour, else an hour of steps. */
  price?: ServicePrice;
}

/** A service type's price: per hour, in an ISO 4217 currency (USD unless the configuration says). */
export interface ServicePrice {
  perHour: number;
  currency: string;
}

export interface LocalConfig extends Common {
  class: "local";
  platform: Given<Service, "platform">;
  /** Installing system packages on the server itself is opt-in. */
  allowInstall: Given<Service, "allow_install">;
}

/** One host, its section's settings filled in, under our names (never the ancestor's). */
export type ExistingHost = {
  /** The machine's id within the session: its name, else `host` (`host_port` off port 22). */
  id: string;
} & Required<Pick<Host, "host" | "port" | "vm_user" | "platform">> &
  Pick<Host, "ssh_private_key" | "key_path" | "password">;

export interface ExistingVmConfig extends Common {
  class: "existing-vm";
  hosts: ExistingHost[];
  allowInstall: Given<Service, "allow_install">;
}

interface CloudCommon extends Common {
  class: "cloud";
  accessId: Given<Provider, "access_id">;
  secretKey: Given<Provider, "secret_key">;
  endpoint?: Given<Provider, "endpoint">;
  image: Given<Service, "image">;
  size: Given<Service, "size">;
  /** The configured login user, else the one the image's name suggests. */
  vmUser: Given<Service, "vm_user">;
  platform: Given<Service, "platform">;
  keyName?: Given<Service, "key_name">;
  sshPrivateKey?: Given<Service, "ssh_private_key">;
  /** The service type's own, else the provider section's (where the ancestor put it). */
  network?: Given<Service, "network">;
  securityGroup?: Given<Service, "security_group">;
  noFloatingIp: Given<Service, "no_floating_ip">;
  floatingIpPool?: string;
  sshPort: Given<Service, "ssh_port">;
  /** Infinity when only the ancestor's retry count bounds the wait. */
  sshTimeoutMs: number;
  sshPollIntervalMs: number;
  /** SSH probes before giving up (`new_vm.connection_retry_times`); unbounded when unset. */
  sshAttempts?: number;
  /** Run once on each new machine, over SSH, before anything else. */
  postCreateScript?: Given<Service, "post_create_script">;
  /** Where step dirs go on the machines: below the service's `working_dir`, else the login home. */
  workRoot: string;
}

interface Ec2Config extends CloudCommon {
  driver: "ec2";
  region: Given<Provider, "region">;
}

interface OpenStackConfig extends CloudCommon {
  driver: "openstack";
  region?: Given<Provider, "region">;
  authUrl: Given<Provider, "auth_url">;
  authVersion?: Given<Provider, "auth_version">;
  /** `access_id` when unset, as the ancestor took it. */
  tenant: Given<Provider, "tenant">;
  domain: Given<Provider, "domain">;
}

interface GceConfig extends CloudCommon {
  driver: "gce";
  project: Given<Provider, "project">;
  /** The zone. */
  region: Given<Provider, "region">;
}

/** A service principal (`access_id` its client id, `secret_key` its secret) and where machines go. */
interface AzureConfig extends CloudCommon {
  driver: "azure";
  /** The directory (tenant) id. */
  tenant: Given<Provider, "tenant">;
  subscriptionId: Given<Provider, "subscription_id">;
  resourceGroup: Given<Provider, "resource_group">;
  /** The location (`westeurope`). */
  region: Given<Provider, "region">;
  /** The Microsoft Entra authority host, when not the public cloud's. */
  authorityHost?: Given<Provider, "auth_url">;
}

export type CloudConfig = Ec2Config | OpenStackConfig | GceConfig | AzureConfig;

/** `Omit` for each member of a union, each keeping its own fields. */
export type OmitEach<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A provider configuration read once, checked, under one name per setting: what providers and the engine consume. */
export type ProviderConfig = LocalConfig | ExistingVmConfig | CloudConfig;
