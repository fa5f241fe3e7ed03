import type { ConfigSection, ProviderKey, ServiceKey } from "./config-section.js";
import { normalizePrivateKey } from "./private-key.js";
import { CLOUD_DRIVERS, type CloudConfig, type CloudDriverName, type OmitEach } from "./provider-config-types.js";

/**
 * The Benchmarking Suite's spellings of provider-level keys (benchsuite-stdlib's
 * LibcloudComputeProvider read them from the `[provider]` section).
 */
const ANCESTOR_KEYS = {
  noFloatingIp: "benchsuite.openstack.no_floating_ip",
  retryPeriod: "new_vm.connection_retry_period",
  retryTimes: "new_vm.connection_retry_times",
} as const satisfies Record<string, ProviderKey>;

/** The ancestor's defaults when only one of the two retry keys is given: 20 tries, 30 s apart. */
const ANCESTOR_RETRY_TIMES = 20;
const ANCESTOR_RETRY_PERIOD_S = 30;

const REQUIRED: Record<CloudDriverName, { provider: ProviderKey[]; service: ServiceKey[] }> = {
  ec2: { provider: ["access_id", "secret_key", "region"], service: ["image", "size", "vm_user"] },
  // The ancestor took the project from access_id and guessed the user: neither is required.
  openstack: { provider: ["auth_url", "access_id", "secret_key"], service: ["image", "size"] },
  // A service account's email and private key; `region` is the zone.
  gce: { provider: ["access_id", "secret_key", "project", "region"], service: ["image", "size", "vm_user"] },
  // A service principal (client id and secret in its tenant); machines join a subnet of an existing network.
  azure: {
    provider: ["access_id", "secret_key", "tenant", "subscription_id", "resource_group", "region"],
    service: ["image", "size", "vm_user"],
  },
};

/** Azure: a subnet as `<vnet>/<subnet>` in the resource group or its resource id; an image as a URN or its resource id. */
const AZURE_SUBNET = /^(\/subscriptions\/.+\/subnets\/[^/]+|[^/\s]+\/[^/\s]+)$/i;
const AZURE_IMAGE = /^(\/subscriptions\/\S+|[^:\s]+:[^:\s]+:[^:\s]+:[^:\s]+)$/i;

/** What Azure would refuse, refused before anything is made; what it reports goes to the sections' list. */
function checkAzure(
  p: ConfigSection<ProviderKey>,
  s: ConfigSection<ServiceKey>,
  given: Record<"authUrl" | "endpoint" | "network" | "image", string | undefined>,
): void {
  // Both carry the service principal's secret or its tokens: never over plain HTTP.
  if (given.authUrl !== undefined && !/^https:\/\//i.test(given.authUrl)) p.report("auth_url", "is not an https URL", "must start with https://");
  if (given.endpoint !== undefined && !/^https:\/\//i.test(given.endpoint)) p.report("endpoint", "is not an https URL", "must start with https://");
  if (given.network === undefined || !AZURE_SUBNET.test(given.network)) {
    const problem = given.network === undefined ? "is missing" : "is not a subnet";
    s.report("network", problem, "must name the subnet machines join: <vnet>/<subnet> in the resource group, or its resource id");
  }
  if (given.image !== undefined && !AZURE_IMAGE.test(given.image))
    s.report("image", "is not an image", "must be a URN publisher:offer:sku:version, or an image's resource id");
}

/** Keystone v3 with a password is all we speak; the ancestor spelled it `3.x_password`. */
const AUTH_VERSIONS = ["3", "3.x", "3.x_password", "v3"] as const;

/**
 * The login user when the configuration names none, as the ancestor guessed it from the
 * platform or the image name (`ubuntu`, `centos`, else `root`); Debian's cloud images log in
 * as `debian`, which the ancestor predates.
 */
export function guessVmUser(platform: string, image: string): string {
  const text = `${platform} ${image}`.toLowerCase();
  for (const user of ["ubuntu", "centos", "debian"]) if (text.includes(user)) return user;
  return "root";
}

/** What is wrong with a `working_dir`, if anything: it must name one directory plainly. */
function workingDirProblem(dir: string): string | undefined {
  if (/[\x00-\x1f\x7f]/.test(dir)) return "contains control characters";
  if (/^~[^/]/.test(dir)) return "starts with ~user";
  if (dir.split("/").some((part) => part === "." || part === "..")) return "contains a . or .. segment";
  return undefined;
}

/** `<working_dir>/.benchwright`: steps run below the directory asked for; a relative one is below the home. */
function workRootOf(workingDir: string | undefined): string {
  if (workingDir === undefined) return "~/.benchwright";
  const dir = workingDir.replace(/\/+$/, "");
  if (dir === "") return "/.benchwright";
  const base = dir === "~" || dir.startsWith("~/") || dir.startsWith("/") ? dir : `~/${dir}`;
  return `${base}/.benchwright`;
}

type CloudParts = OmitEach<CloudConfig, "name" | "serviceType" | "stepTimeoutS" | "secrets" | "price">;

/**
 * The cloud settings of `p` (provider section) and `s` (service section) for their driver.
 * Problems go to the sections' list; the value returned means something only when none was found.
 */
export function parseCloudConfig(p: ConfigSection<ProviderKey>, s: ConfigSection<ServiceKey>): CloudParts | undefined {
  const driver = p.oneOf("driver", CLOUD_DRIVERS);
  if (!driver) return undefined;
  const required = REQUIRED[driver];
  const fromProvider = (key: ProviderKey) => (required.provider.includes(key) ? p.required(key) : p.text(key));
  const fromService = (key: ServiceKey) => (required.service.includes(key) ? s.required(key) : s.text(key));

  const accessId = fromProvider("access_id")!;
  const secretKey = fromProvider("secret_key")!;
  const region = fromProvider("region");
  const project = fromProvider("project");
  const authUrl = fromProvider("auth_url");
  const image = fromService("image")!;
  const size = fromService("size")!;
  const platform = s.text("platform") ?? "";
  const vmUser = fromService("vm_user") ?? guessVmUser(platform, image ?? "");
  const key = s.text("ssh_private_key");
  const keyName = s.text("key_name");
  // A key pair named without its private key leaves us unable to log in to what we create;
  // a private key without a name is imported as the session's key pair.
  if (keyName !== undefined && key === undefined) s.report("ssh_private_key", "is missing", "must be given with key_name, to log in with that key pair");

  // The ancestor's connection retries: given either key, both apply (the other at its default)
  // and the count, not ssh_timeout's default, bounds the wait.
  const retryTimes = p.integer(ANCESTOR_KEYS.retryTimes, 1);
  const retryPeriodS = p.positive(ANCESTOR_KEYS.retryPeriod);
  const retries = retryTimes !== undefined || retryPeriodS !== undefined;
  const sshTimeoutS = s.positive("ssh_timeout") ?? (retries ? Infinity : 300);

  const workingDir = s.text("working_dir");
  const dirProblem = workingDir === undefined ? undefined : workingDirProblem(workingDir);
  if (dirProblem) s.report("working_dir", dirProblem, "must name one directory plainly: absolute, ~/dir, or relative to the login home");

  // The ancestor put these in the provider section; ours are per service type: both count, ours first.
  const noFloatingIp = s.text("no_floating_ip") !== undefined ? s.flag("no_floating_ip") : p.flag(ANCESTOR_KEYS.noFloatingIp);

  const common = {
    class: "cloud" as const,
    accessId,
    secretKey,
    endpoint: p.text("endpoint"),
    image,
    size,
    vmUser,
    platform,
    keyName,
    // Only its outer blanks and its line ends' forms change: the key's lines matter.
    sshPrivateKey: key === undefined ? undefined : normalizePrivateKey(key),
    network: s.text("network") ?? p.text("network"),
    securityGroup: s.text("security_group") ?? p.text("security_group"),
    noFloatingIp: noFloatingIp ?? false,
    floatingIpPool: s.text("floating_ip_pool"),
    sshPort: s.integer("ssh_port", 1, 65535) ?? 22,
    sshTimeoutMs: sshTimeoutS * 1000,
    sshPollIntervalMs: retries ? (retryPeriodS ?? ANCESTOR_RETRY_PERIOD_S) * 1000 : 3000,
    sshAttempts: retries ? (retryTimes ?? ANCESTOR_RETRY_TIMES) : undefined,
    postCreateScript: s.text("post_create_script"),
    workRoot: workRootOf(workingDir),
  };
  switch (driver) {
    case "ec2":
      return { ...common, driver, region: region! };
    case "gce":
      return { ...common, driver, region: region!, project: project! };
    case "azure": {
      checkAzure(p, s, { authUrl, endpoint: common.endpoint, network: common.network, image });
      return {
        ...common,
        driver,
        region: region!,
        tenant: fromProvider("tenant")!,
        subscriptionId: fromProvider("subscription_id")!,
        resourceGroup: fromProvider("resource_group")!,
        authorityHost: authUrl,
      };
    }
    case "openstack": {
      if (authUrl !== undefined && !/^https?:\/\//i.test(authUrl)) p.report("auth_url", "is not an http(s) URL", "must start with http:// or https://");
      const authVersion = p.text("auth_version") === undefined ? undefined : p.oneOf("auth_version", AUTH_VERSIONS);
      return {
        ...common,
        driver,
        region,
        authUrl: authUrl!,
        authVersion,
        tenant: p.text("tenant") ?? accessId,
        domain: p.text("domain") ?? "Default",
      };
    }
  }
}
