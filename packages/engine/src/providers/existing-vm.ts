import { readFileSync } from "node:fs";
import { configError, problem } from "../config/config-problem.js";
import type { ExistingHost, ExistingVmConfig } from "../config/provider-config-types.js";
import type { Machine, Provider } from "./provider.js";

/** Hosts that already exist, reached over SSH; the provider creates nothing, so it destroys nothing. */
export class ExistingVmProvider implements Provider {
  constructor(private readonly config: ExistingVmConfig) {}

  async ensureMachines(): Promise<Machine[]> {
    return this.config.hosts.map((h) => ({
      id: h.id,
      ip: h.host,
      platform: h.platform,
      workRoot: "~/.benchwright",
      allowInstall: this.config.allowInstall,
      ssh: {
        host: h.host,
        port: h.port,
        username: h.vm_user,
        ...(h.ssh_private_key || h.key_path ? { privateKey: this.privateKeyOf(h) } : {}),
        ...(h.password !== undefined ? { password: h.password } : {}),
      },
    }));
  }

  async destroy(): Promise<void> {}

  /** A key file is read when it is used: the operator may replace it while sessions live. */
  private privateKeyOf(h: ExistingHost): string {
    if (h.ssh_private_key) return h.ssh_private_key;
    try {
      return readFileSync(h.key_path!, "utf8");
    } catch {
      throw configError(`The existing-vm configuration '${this.config.name}' cannot be used`, [
        problem([this.config.serviceType, "key_path"], `cannot be read for host ${h.host}`, "must name a private key file the server can read"),
      ]);
    }
  }
}
