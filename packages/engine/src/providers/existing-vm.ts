import { readFileSync } from "node:fs";
import { BenchwrightError } from "../errors.js";
import type { Machine, Provider, ProviderContext, ResolvedConfig } from "./provider.js";

interface HostSpec {
  name?: string;
  host: string;
  port?: number;
  vm_user?: string;
  platform?: string;
  ssh_private_key?: string;
  key_path?: string;
  password?: string;
}

/**
 * The Benchmarking Suite's names of our settings (its ExistingVMProvider read `ip_address`
 * and `user`): accepted beside ours, in a section and in each of its `hosts`.
 */
const ANCESTOR_NAMES = { ip_address: "host", user: "vm_user" } as const;

/** Hosts that already exist, reached over SSH; the provider creates nothing, so it destroys nothing. */
export class ExistingVmProvider implements Provider {
  async ensureMachines(ctx: ProviderContext): Promise<Machine[]> {
    return hostsOf(ctx.config).map((h) => {
      const port = h.port ?? 22;
      return {
        id: h.name ?? (port === 22 ? h.host : `${h.host}_${port}`),
        ip: h.host,
        platform: h.platform ?? "",
        workRoot: "~/.benchwright",
        allowInstall: ctx.config.service.allow_install !== false,
        ssh: {
          host: h.host,
          port,
          username: h.vm_user!,
          ...(h.ssh_private_key || h.key_path ? { privateKey: privateKeyOf(h) } : {}),
          ...(h.password !== undefined ? { password: h.password } : {}),
        },
      };
    });
  }

  async destroy(): Promise<void> {}
}

/** A section or host entry with the ancestor's names read as ours (ours win when both are set). */
function withOurNames(o: Record<string, unknown>): Record<string, unknown> {
  const out = { ...o };
  for (const [theirs, ours] of Object.entries(ANCESTOR_NAMES)) {
    if (out[ours] === undefined && out[theirs] !== undefined) out[ours] = out[theirs];
    delete out[theirs];
  }
  return out;
}

/** The section's own host, or its `hosts`, each inheriting the section's user, credentials and platform. */
function hostsOf(config: ResolvedConfig): HostSpec[] {
  const s = withOurNames(config.service) as Record<string, unknown> & HostSpec & { hosts?: HostSpec[] };
  const defaults = { port: s.port, vm_user: s.vm_user, platform: s.platform, ssh_private_key: s.ssh_private_key, key_path: s.key_path, password: s.password };
  const listed: Record<string, unknown>[] = s.hosts ? (s.hosts as unknown as Record<string, unknown>[]).map(withOurNames) : s.host ? [{ host: s.host }] : [];
  const strip = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  return listed.map((h) => ({ ...strip(defaults), ...strip(h) }) as unknown as HostSpec);
}

function privateKeyOf(h: HostSpec): string {
  if (h.ssh_private_key) return h.ssh_private_key;
  try {
    return readFileSync(h.key_path!, "utf8");
  } catch {
    throw new BenchwrightError("invalid_configuration", `Cannot read the key file configured for host ${h.host}`);
  }
}

/** `host` and `ip_address` (or `vm_user` and `user`) both set, to different values: which one was meant is unknown. */
function nameConflicts(o: Record<string, unknown>, where: string): string[] {
  return Object.entries(ANCESTOR_NAMES)
    .filter(([theirs, ours]) => o[theirs] !== undefined && o[ours] !== undefined && o[theirs] !== o[ours])
    .map(([theirs, ours]) => `${where}: ${ours} and ${theirs} name the same setting and differ`);
}

export function validateExistingVmConfig(config: ResolvedConfig): string[] {
  // The contract's schema says as much, but the engine is called without HTTP too.
  const listed = config.service.hosts;
  if (listed !== undefined && (!Array.isArray(listed) || listed.some((h) => !h || typeof h !== "object" || Array.isArray(h)))) {
    return [`${config.serviceType}.hosts: must be a list of {host, ...} entries`];
  }
  const problems: string[] = nameConflicts(config.service, config.serviceType);
  ((listed ?? []) as Record<string, unknown>[]).forEach((h, i) => problems.push(...nameConflicts(h, `${config.serviceType}.hosts[${i}]`)));
  const hosts = hostsOf(config);
  if (hosts.length === 0) problems.push(`${config.serviceType}: set host (or ip_address), or hosts`);
  const ids = new Set<string>();
  hosts.forEach((h, i) => {
    const where = `${config.serviceType}.hosts[${i}]`;
    if (!h.host) problems.push(`${where}: host (or ip_address) is required`);
    if (!h.vm_user) problems.push(`${where}: vm_user (or user) is required`);
    if (!h.ssh_private_key && !h.key_path && h.password === undefined) problems.push(`${where}: ssh_private_key, key_path or password is required`);
    if (h.ssh_private_key && !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(h.ssh_private_key)) {
      problems.push(`${where}: ssh_private_key is not a PEM or OpenSSH private key`);
    }
    if (h.password !== undefined && (typeof h.password !== "string" || h.password === "")) problems.push(`${where}: password must be a non-empty string`);
    const id = h.name ?? `${h.host}:${h.port ?? 22}`;
    if (ids.has(id)) problems.push(`${where}: ${id} is listed twice`);
    ids.add(id);
  });
  return problems;
}
