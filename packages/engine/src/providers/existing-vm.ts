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
}

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
        ssh: { host: h.host, port, username: h.vm_user!, privateKey: privateKeyOf(h) },
      };
    });
  }

  async destroy(): Promise<void> {}
}

/** The section's own host, or its `hosts`, each inheriting the section's user, key and platform. */
function hostsOf(config: ResolvedConfig): HostSpec[] {
  const s = config.service as Record<string, unknown> & HostSpec & { hosts?: HostSpec[] };
  const defaults = { port: s.port, vm_user: s.vm_user, platform: s.platform, ssh_private_key: s.ssh_private_key, key_path: s.key_path };
  const listed = s.hosts ?? (s.host ? [{ host: s.host }] : []);
  const strip = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  return listed.map((h) => ({ ...strip(defaults), ...strip(h as unknown as Record<string, unknown>) }) as unknown as HostSpec);
}

function privateKeyOf(h: HostSpec): string {
  if (h.ssh_private_key) return h.ssh_private_key;
  try {
    return readFileSync(h.key_path!, "utf8");
  } catch {
    throw new BenchwrightError("invalid_configuration", `Cannot read the key file configured for host ${h.host}`);
  }
}

export function validateExistingVmConfig(config: ResolvedConfig): string[] {
  // The contract's schema says as much, but the engine is called without HTTP too.
  const listed = config.service.hosts;
  if (listed !== undefined && (!Array.isArray(listed) || listed.some((h) => !h || typeof h !== "object" || Array.isArray(h)))) {
    return [`${config.serviceType}.hosts: must be a list of {host, ...} entries`];
  }
  const problems: string[] = [];
  const hosts = hostsOf(config);
  if (hosts.length === 0) problems.push(`${config.serviceType}: set host, or hosts`);
  const ids = new Set<string>();
  hosts.forEach((h, i) => {
    const where = `${config.serviceType}.hosts[${i}]`;
    if (!h.host) problems.push(`${where}: host is required`);
    if (!h.vm_user) problems.push(`${where}: vm_user is required`);
    if (!h.ssh_private_key && !h.key_path) problems.push(`${where}: ssh_private_key or key_path is required`);
    if (h.ssh_private_key && !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(h.ssh_private_key)) {
      problems.push(`${where}: ssh_private_key is not a PEM or OpenSSH private key`);
    }
    const id = h.name ?? `${h.host}:${h.port ?? 22}`;
    if (ids.has(id)) problems.push(`${where}: ${id} is listed twice`);
    ids.add(id);
  });
  return problems;
}
