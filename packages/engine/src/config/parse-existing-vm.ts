import { describeValue, type FieldPath } from "./config-problem.js";
import type { ConfigSection, HostKey, ServiceKey } from "./config-section.js";
import type { ExistingHost, ExistingVmConfig } from "./provider-config-types.js";
import { normalizePrivateKey } from "./private-key.js";

/** Keys a host entry and its section share: the section's are every host's defaults. */
type HostSettingKey = HostKey & ServiceKey;

/**
 * The Benchmarking Suite's names of our settings (its ExistingVMProvider read `ip_address`
 * and `user`): accepted beside ours, in a section and in each of its `hosts`.
 */
const ANCESTOR_NAMES = [
  ["host", "ip_address"],
  ["vm_user", "user"],
] as const;

type HostSettings = Partial<Omit<ExistingHost, "id">> & { name?: string };

/** One place's settings (the section, or one entry of its `hosts`), under our names. */
function settingsOf(section: ConfigSection<HostSettingKey>): HostSettings {
  const [host, vmUser] = ANCESTOR_NAMES.map(([ours, theirs]) => {
    const mine = section.text(ours);
    const ancestors = section.text(theirs);
    if (mine !== undefined && ancestors !== undefined && mine !== ancestors) {
      section.report(theirs, `differs from ${ours}`, `${ours} and ${theirs} name the same setting: give one, or both alike`);
    }
    return mine ?? ancestors;
  });
  const key = section.secret("ssh_private_key");
  const sshPrivateKey = key === undefined ? undefined : normalizePrivateKey(key);
  if (sshPrivateKey !== undefined && !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(sshPrivateKey)) {
    section.report("ssh_private_key", "is not a private key", "must be a PEM or OpenSSH private key");
  }
  const settings: HostSettings = {
    host,
    vm_user: vmUser,
    port: section.integer("port", 1, 65535),
    platform: section.text("platform"),
    ssh_private_key: sshPrivateKey,
    key_path: section.text("key_path"),
    password: section.secret("password"),
  };
  return Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined));
}

/** The section's own host, or its `hosts`, each inheriting the section's user, credentials, port and platform. */
export function parseExistingVm(service: ConfigSection<ServiceKey>): Pick<ExistingVmConfig, "hosts" | "allowInstall"> {
  const allowInstall = service.flag("allow_install") ?? true;
  const listed = service.raw("hosts");
  if (listed !== undefined && (!Array.isArray(listed) || listed.some((h) => !h || typeof h !== "object" || Array.isArray(h)))) {
    service.report(
      "hosts",
      Array.isArray(listed) ? "holds an entry that is not a mapping" : describeValue("hosts", listed),
      "must be a list of {host, ...} entries",
    );
    return { hosts: [], allowInstall };
  }
  const defaults = settingsOf(service);
  const entries: Array<{ at: FieldPath; settings: HostSettings }> = Array.isArray(listed)
    ? listed.map((entry: Record<string, unknown>, i) => {
        const section = service.nested<HostKey>(entry, ["hosts", i]);
        const own = settingsOf(section);
        const name = section.text("name");
        return { at: section.at, settings: { ...defaults, ...own, ...(name !== undefined ? { name } : {}) } };
      })
    : defaults.host !== undefined
      ? [{ at: service.at, settings: defaults }]
      : [];
  if (entries.length === 0) service.report(service.at, "has no host", "set host (or ip_address), or hosts");

  const seen = new Set<string>();
  const hosts: ExistingHost[] = [];
  for (const { at, settings: h } of entries) {
    if (h.host === undefined) service.report([...at, "host"], "is missing", "must be a host name or address, as host or ip_address");
    if (h.vm_user === undefined) service.report([...at, "vm_user"], "is missing", "must be the login user, as vm_user or user, on the host or its section");
    if (h.ssh_private_key === undefined && h.key_path === undefined && h.password === undefined) {
      service.report(at, "has no credential", "ssh_private_key, key_path or password is required");
    }
    const port = h.port ?? 22;
    const key = h.name ?? `${h.host}:${port}`;
    if (seen.has(key)) service.report(at, `repeats ${key}`, "each host (by name, or host and port) at most once");
    seen.add(key);
    hosts.push({
      id: h.name ?? (port === 22 ? h.host! : `${h.host}_${port}`),
      host: h.host!,
      port,
      vm_user: h.vm_user!,
      platform: h.platform ?? "",
      ...(h.ssh_private_key !== undefined ? { ssh_private_key: h.ssh_private_key } : {}),
      ...(h.key_path !== undefined ? { key_path: h.key_path } : {}),
      ...(h.password !== undefined ? { password: h.password } : {}),
    });
  }
  return { hosts, allowInstall };
}
